import * as path from 'node:path'
import { containerStartOrder, type ContainerAddressing } from '../../topology/containers'
import type { HttpTopology } from '../../topology/schema'
import type { DeploymentDriver, Instance } from '../lifecycle'
import { LogTail } from '../log-tail'
import { probeUntilReady } from '../probe'
import { freePorts } from './ports'
import { deploymentSlot, ServiceProcess } from './process'

const HOST = '127.0.0.1'

/**
 * A generic topology as processes on loopback: each instance runs its service's `command` (in
 * its build context) on a port of its own, which `${port}` and `${addr:S}` hand to it and its
 * peers. Resource limits are the containers' business; here they do not apply.
 */
export async function openGeneric(
  topology: HttpTopology,
  logDir: string,
  runId: string
): Promise<DeploymentDriver> {
  const missing = topology.services.find(s => !s.command)
  if (missing) {
    throw new Error(
      `${topology.id}: service ${missing.name} has no command; the local engine runs one per service`
    )
  }
  const slots = topology.services.flatMap(s =>
    Array.from({ length: s.replicas }, (_, r) => `${s.name}-${r}`)
  )
  const ports = await freePorts(slots.length)
  const portOf = new Map(slots.map((slot, i) => [slot, ports[i]]))
  const replicas = new Map(topology.services.map(s => [s.name, s.replicas]))
  const addressing: ContainerAddressing = {
    port: (service, replica) => portOf.get(`${service}-${replica}`)!,
    addr: service => `${HOST}:${portOf.get(`${service}-0`)}`,
    addrs: service =>
      Array.from(
        { length: replicas.get(service)! },
        (_, r) => `${HOST}:${portOf.get(`${service}-${r}`)}`
      )
  }
  const procs: ServiceProcess[] = []
  let removed = false
  return {
    order: containerStartOrder(topology, addressing),
    frontend: { host: HOST, port: addressing.port(topology.load.service, 0) },
    routeDumpName: '',
    async startService(commands): Promise<Instance[]> {
      const started: Instance[] = []
      for (const c of commands) {
        if (c.kind !== 'container' || !c.argv) throw new Error(`${c.instance}: no command to run`)
        const release = await deploymentSlot(c.instance, () => removed)
        const pattern = 'log' in c.ready ? c.ready.log : undefined
        const output = new LogTail(path.join(logDir, `${c.instance}.log`), pattern)
        const proc = new ServiceProcess({
          // The parent-death shim is Python; any python3 will do.
          python: 'python3',
          executable: c.argv[0],
          args: c.argv.slice(1),
          output,
          env: { ...c.env, GNES_BENCH_SUITE: runId },
          cwd: c.cwd ?? undefined
        })
        procs.push(proc)
        const exited = proc.exited.then(code => `exited (code ${code})`)
        const ready =
          'log' in c.ready
            ? output.ready
            : probeUntilReady(HOST, c.port, 'http' in c.ready ? c.ready.http : null, exited)
        void Promise.race([ready, exited]).then(release, release)
        started.push({ name: c.instance, service: c.service, output, exited, node: null, ready })
      }
      return started
    },
    async runScript() {
      throw new Error(`${topology.id}: a generic topology runs no scripts`)
    },
    async readRouteDump() {
      return ''
    },
    async remove(urgent) {
      removed = true
      await Promise.all(procs.map(p => p.stop(urgent ? 0 : undefined)))
    }
  }
}
