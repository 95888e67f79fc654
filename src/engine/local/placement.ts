import * as fs from 'node:fs'
import type { Placement, Started } from '../platform'
import type { LogTail } from '../log-tail'
import { deploymentSlot, ServiceProcess } from './process'
import type { GnesVenv } from './venv'
import { processTreeCounters } from './usage'

export const HOST = '127.0.0.1'

/**
 * One deployment as processes on loopback: a GNES instance runs the venv's `gnes`, a generic one
 * its service's command in its build context. Every process has GNES_BENCH_SUITE set to the run
 * id, so anyone (a test, an operator) can find this suite's processes in /proc.
 */
export function localPlacement(runId: string, venv: () => GnesVenv): Placement {
  const procs: ServiceProcess[] = []
  let removed = false
  const spawn = (o: Omit<ConstructorParameters<typeof ServiceProcess>[0], 'runId'>) => {
    const p = new ServiceProcess({ ...o, runId })
    procs.push(p)
    return p
  }
  return {
    async start(service, io) {
      for (const i of service.instances) {
        const release = await deploymentSlot(i.name, () => removed)
        const output = io.output(i)
        const proc =
          service.runs === 'gnes'
            ? spawn({ python: venv().python, executable: venv().gnes, args: i.argv!, output })
            : spawn({
                // The parent-death shim is Python; any python3 will do.
                python: 'python3',
                executable: i.argv![0],
                args: i.argv!.slice(1),
                output,
                env: i.env,
                cwd: i.cwd ?? undefined
              })
        const started: Started = {
          exited: proc.exited.then(code => `exited (code ${code})`),
          exitCode: proc.exited,
          node: null,
          address: async () => HOST,
          readFile: async file => (fs.existsSync(file) ? fs.promises.readFile(file, 'utf8') : ''),
          fileName: file => file,
          counters: () => processTreeCounters(proc.child.pid)
        }
        void Promise.race([io.started(i, started), started.exited]).then(release, release)
      }
    },
    traceHost: async () => HOST,
    async runScript(_name, script, args, output: LogTail, cancel) {
      const proc = spawn({
        python: venv().python,
        executable: venv().python,
        args: [script, ...args],
        output
      })
      cancel.catch(() => proc.stop())
      try {
        return await proc.exited
      } finally {
        await proc.stop()
      }
    },
    async remove(urgent) {
      removed = true
      await Promise.all(procs.map(p => p.stop(urgent ? 0 : undefined)))
    }
  }
}
