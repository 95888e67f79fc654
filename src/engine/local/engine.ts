import * as fs from 'node:fs'
import * as path from 'node:path'
import type { GnesMeta } from '../gnes-meta'
import { READY_PATTERN, startOrder } from '../../topology/commands'
import type { Topology } from '../../topology/schema'
import { LifecycleEngine, type DeploymentDriver, type Instance, type Platform } from '../lifecycle'
import { LogTail } from '../log-tail'
import type { ServiceFailure } from '../types'
import { freePorts } from './ports'
import { deploymentSlot, ServiceProcess } from './process'
import { openGeneric } from './generic'
import { readGnesSource } from './source-tree'
import { ensureGnesVenv, ensureSourceVenv, type GnesVenv } from './venv'

/** Where the local engine's GNES comes from: a PyPI release, or a source tree (`gnes-source`). */
export type GnesInstall = { version: string } | { source: string }

/**
 * GNES processes on loopback, from a cached virtual environment. `runId` is set as
 * GNES_BENCH_SUITE in every process's environment, so anyone (a test, an operator) can find this
 * suite's processes in /proc.
 */
class LocalPlatform implements Platform<'local'> {
  readonly kind = 'local' as const
  private venv: GnesVenv | undefined

  constructor(
    private readonly gnes: GnesInstall,
    readonly runId: string,
    private readonly log: (line: string) => void
  ) {}

  async prepare(gnes: boolean): Promise<GnesMeta | null> {
    if (!gnes) return null
    if ('version' in this.gnes) {
      this.venv = await ensureGnesVenv(this.gnes.version, this.log)
      return { version: this.venv.version, tag: this.venv.version, vcs: null, buildDate: null }
    }
    const source = readGnesSource(this.gnes.source)
    this.venv = await ensureSourceVenv(source, this.log)
    const tag = `source-${source.hash.slice(0, 12)}`
    return { version: this.venv.version, tag, vcs: source.commit, buildDate: null }
  }

  async open(topology: Topology, _index: number, logDir: string): Promise<DeploymentDriver> {
    if (topology.kind === 'http') return openGeneric(topology, logDir, this.runId)
    if (!this.venv) throw new Error('local engine: prepare() must run before start()')
    const venv = this.venv
    const env = { GNES_BENCH_SUITE: this.runId }
    const [grpcPort, ...ports] = await freePorts(1 + 2 * topology.services.length)
    const portOf = new Map(
      topology.services.flatMap((s, i) => [
        [`${s.name}:in`, ports[2 * i]],
        [`${s.name}:out`, ports[2 * i + 1]]
      ])
    )
    const dumpPath = path.join(logDir, 'route-dump.jsonl')
    const procs: ServiceProcess[] = []
    let removed = false
    const spawnTracked = (executable: string, args: string[], output: LogTail) => {
      const p = new ServiceProcess({ python: venv.python, executable, args, output, env })
      procs.push(p)
      return p
    }
    const addressing = {
      host: () => '127.0.0.1',
      port: (service: string, side: 'in' | 'out') => portOf.get(`${service}:${side}`)!,
      grpcPort,
      dumpPath
    }
    return {
      order: startOrder(topology, addressing),
      frontend: { host: '127.0.0.1', port: grpcPort },
      routeDumpName: dumpPath,
      async startService(commands): Promise<Instance[]> {
        const started: Instance[] = []
        for (const c of commands) {
          if (c.kind !== 'gnes') throw new Error(`${c.instance}: not a GNES service`)
          const release = await deploymentSlot(c.instance, () => removed)
          const output = new LogTail(path.join(logDir, `${c.instance}.log`), READY_PATTERN[c.role])
          const proc = spawnTracked(venv.gnes, c.argv, output)
          const exited = proc.exited.then(code => `exited (code ${code})`)
          void Promise.race([output.ready, exited]).then(release, release)
          started.push({
            name: c.instance,
            service: c.service,
            output,
            exited,
            node: null,
            ready: output.ready
          })
        }
        return started
      },
      async runScript(_name, script, args, output, cancel) {
        const proc = spawnTracked(venv.python, [script, ...args], output)
        cancel.catch(() => proc.stop())
        try {
          return await proc.exited
        } finally {
          await proc.stop()
        }
      },
      async readRouteDump() {
        return fs.existsSync(dumpPath) ? fs.promises.readFile(dumpPath, 'utf8') : ''
      },
      async remove(urgent) {
        removed = true
        await Promise.all(procs.map(p => p.stop(urgent ? 0 : undefined)))
      }
    }
  }

  async sweep(): Promise<void> {
    // Every process is tracked by its deployment, and the parent-death signal covers the rest.
  }

  /**
   * Free ports are released before GNES binds them, so another suite on this machine can take one
   * in between; a start that fails on a taken port is retried on fresh ports.
   */
  retryable(failure: ServiceFailure): boolean {
    return /address already in use/i.test(failure.logTail)
  }
}

/** Runs topologies as GNES processes on loopback. */
export class LocalEngine extends LifecycleEngine<'local'> {
  constructor(gnes: GnesInstall, suiteId: string, log: (line: string) => void) {
    super(new LocalPlatform(gnes, suiteId, log), log)
  }
}
