import * as fs from 'node:fs'
import * as path from 'node:path'
import {
  clientArgs,
  clientScriptPath,
  readClientReports,
  type ClientPlan,
  type StreamReport
} from '../../client/load-client'
import type { GnesMeta } from '../../result/schema'
import { READY_PATTERN, serviceCommands } from '../../topology/commands'
import type { Topology } from '../../topology/schema'
import { ServiceFailure, type Deployment, type Engine, type StartOptions } from '../types'
import { withDeadline } from '../deadline'
import { freePorts } from './ports'
import { ServiceProcess } from './process'
import { ensureGnesVenv, type GnesVenv } from './venv'

/** Rejects with the first service that exits; `stopping` turns that into silence. */
function watchExits(procs: ServiceProcess[], stopping: () => boolean): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    for (const p of procs) {
      void p.exited.then(code => {
        if (!stopping()) reject(new ServiceFailure(p.name, `exited (code ${code})`, p.tail()))
      })
    }
  })
  failed.catch(() => undefined)
  return failed
}

const PORT_ATTEMPTS = 3

class LocalDeployment implements Deployment {
  readonly failed: Promise<never>
  private stopping = false
  private clientRuns = 0

  constructor(
    private readonly venv: GnesVenv,
    private readonly procs: ServiceProcess[],
    private readonly grpcPort: number,
    private readonly dumpPath: string,
    private readonly logDir: string,
    private readonly suiteId: string,
    private readonly onStop: (d: LocalDeployment) => void
  ) {
    this.failed = watchExits(procs, () => this.stopping)
  }

  async runClient(plan: ClientPlan, timeoutSec: number): Promise<StreamReport[]> {
    const name = `client-${this.clientRuns++}`
    const client = new ServiceProcess({
      name,
      python: this.venv.python,
      executable: this.venv.python,
      args: [
        clientScriptPath(),
        ...clientArgs({ host: '127.0.0.1', port: this.grpcPort }, plan, timeoutSec)
      ],
      logFile: path.join(this.logDir, `${name}.log`),
      env: { GNES_BENCH_SUITE: this.suiteId },
      captureStdout: true
    })
    try {
      const code = await withDeadline(
        Promise.race([client.exited, this.failed]),
        (timeoutSec + 15) * 1000,
        () => new ServiceFailure(name, `did not finish within ${timeoutSec} s`, client.tail())
      )
      if (code !== 0) throw new ServiceFailure(name, `failed (exit ${code})`, client.tail())
      return readClientReports(await client.output(), plan)
    } finally {
      await client.stop()
    }
  }

  get routeDumpName(): string {
    return this.dumpPath
  }

  async readRouteDump(): Promise<string> {
    return fs.existsSync(this.dumpPath) ? fs.promises.readFile(this.dumpPath, 'utf8') : ''
  }

  async stop(): Promise<void> {
    this.stopping = true
    await Promise.all(this.procs.map(p => p.stop()))
    this.onStop(this)
  }
}

/** Runs topologies as GNES processes on loopback, from a cached virtual environment. */
export class LocalEngine implements Engine {
  readonly kind = 'local' as const
  private venv: GnesVenv | undefined
  private readonly deployments = new Set<LocalDeployment>()

  /**
   * `suiteId` is set as GNES_BENCH_SUITE in every service's environment, so anyone (a test, an
   * operator) can find this suite's processes in /proc.
   */
  constructor(
    private readonly gnesVersion: string,
    private readonly suiteId: string,
    private readonly log: (line: string) => void
  ) {}

  async prepare(): Promise<GnesMeta> {
    this.venv = await ensureGnesVenv(this.gnesVersion, this.log)
    return { version: this.gnesVersion, tag: this.gnesVersion, vcs: null, buildDate: null }
  }

  /**
   * Free ports are released before GNES binds them, so another suite on this machine can take one
   * in between; a start that fails on a taken port is retried on fresh ports.
   */
  async start(topology: Topology, options: StartOptions): Promise<Deployment> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(topology, options)
      } catch (err) {
        const taken = err instanceof ServiceFailure && /Address already in use/.test(err.logTail)
        if (!taken || attempt === PORT_ATTEMPTS) throw err
        this.log(`a port was taken before ${err.service} bound it; starting again on fresh ports`)
      }
    }
  }

  private async startOnce(topology: Topology, options: StartOptions): Promise<Deployment> {
    if (!this.venv) throw new Error('LocalEngine.prepare() must run before start()')
    const venv = this.venv
    fs.mkdirSync(options.logDir, { recursive: true })
    const [grpcPort, ...ports] = await freePorts(1 + 2 * topology.services.length)
    const portOf = new Map(
      topology.services.flatMap((s, i) => [
        [`${s.name}:in`, ports[2 * i]],
        [`${s.name}:out`, ports[2 * i + 1]]
      ])
    )
    const dumpPath = path.join(options.logDir, 'route-dump.jsonl')
    const commands = serviceCommands(topology, {
      host: () => '127.0.0.1',
      port: (service, side) => portOf.get(`${service}:${side}`)!,
      grpcPort,
      dumpPath
    })
    const procs = commands.map(
      c =>
        new ServiceProcess({
          name: c.instance,
          python: venv.python,
          executable: venv.gnes,
          args: c.argv,
          logFile: path.join(options.logDir, `${c.instance}.log`),
          readyPattern: READY_PATTERN[c.role],
          env: { GNES_BENCH_SUITE: this.suiteId }
        })
    )
    const deployment = new LocalDeployment(
      venv,
      procs,
      grpcPort,
      dumpPath,
      options.logDir,
      this.suiteId,
      d => this.deployments.delete(d)
    )
    this.deployments.add(deployment)
    const notReady = () => {
      const waiting = procs.filter(p => !p.isReady)
      return new ServiceFailure(
        waiting.map(p => p.name).join(', '),
        `did not become ready within ${options.readyTimeoutMs / 1000} s`,
        waiting.map(p => `[${p.name}]\n${p.tail()}`).join('\n')
      )
    }
    try {
      await withDeadline(
        Promise.race([Promise.all(procs.map(p => p.ready)), deployment.failed]),
        options.readyTimeoutMs,
        notReady
      )
    } catch (err) {
      await deployment.stop()
      throw err
    }
    return deployment
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.deployments].map(d => d.stop()))
  }
}
