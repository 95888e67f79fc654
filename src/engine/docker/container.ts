import type Docker from 'dockerode'
import * as fs from 'node:fs'
import { PassThrough, Writable } from 'node:stream'
import { putContainerFiles } from './archive'
import { statusOf, withTimeout } from './client'
import type { Limits } from './limits'

/** Removes a container whatever its state; a container already gone is fine. */
export async function removeContainer(container: Docker.Container): Promise<void> {
  try {
    await container.remove({ force: true, v: true })
  } catch (err) {
    if (statusOf(err) !== 404 && statusOf(err) !== 409) throw err
  }
}

/** Keeps the last lines written to it, and forwards everything to an optional sink. */
class LineTail extends Writable {
  private lines: string[] = []
  private partial = ''
  constructor(
    private readonly keep: number,
    private readonly onLine: (line: string) => void,
    private readonly sink?: fs.WriteStream
  ) {
    super()
  }
  _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.sink?.write(chunk)
    const parts = (this.partial + chunk.toString('utf8')).split(/\r?\n/)
    this.partial = parts.pop() ?? ''
    for (const line of parts) this.push1(line)
    done()
  }
  private push1(line: string): void {
    this.lines.push(line)
    if (this.lines.length > this.keep) this.lines.shift()
    this.onLine(line)
  }
  text(): string {
    return [...this.lines, ...(this.partial ? [this.partial] : [])].join('\n')
  }
}

export interface ServiceSpec {
  /** The service's DNS name on the network, e.g. Router1-0; `aliases` add e.g. Router1. */
  hostname: string
  aliases: string[]
  containerName: string
  image: string
  cmd: string[]
  labels: Record<string, string>
  network: string
  limits: Limits
  logFile: string
  /** A log line that says the service is ready. */
  ready: RegExp
}

/** One GNES service in a container: its log goes to a file, readiness and exit are watched. */
export class ServiceContainer {
  readonly container: Docker.Container
  private readonly tailBuf: LineTail
  private logsDone: Promise<void> = Promise.resolve()
  private markReady!: () => void
  readonly isReady = new Promise<void>(resolve => (this.markReady = resolve))

  private constructor(
    container: Docker.Container,
    readonly spec: ServiceSpec
  ) {
    this.container = container
    const sink = fs.createWriteStream(spec.logFile)
    this.tailBuf = new LineTail(
      30,
      line => {
        if (spec.ready.test(line)) this.markReady()
      },
      sink
    )
    this.tailBuf.on('finish', () => sink.end())
  }

  static async create(docker: Docker, spec: ServiceSpec): Promise<ServiceContainer> {
    const container = await docker.createContainer({
      name: spec.containerName,
      Hostname: spec.hostname,
      Image: spec.image,
      Entrypoint: ['gnes'],
      Cmd: spec.cmd,
      Env: ['PYTHONUNBUFFERED=1'],
      Labels: spec.labels,
      HostConfig: { NetworkMode: spec.network, ...spec.limits },
      NetworkingConfig: {
        EndpointsConfig: { [spec.network]: { Aliases: [spec.hostname, ...spec.aliases] } }
      }
    })
    return new ServiceContainer(container, spec)
  }

  /** Starts it; `exited` resolves with its exit code when it stops (for whatever reason). */
  async start(): Promise<{ exited: Promise<number> }> {
    await this.container.start()
    const logs = (await this.container.logs({
      follow: true,
      stdout: true,
      stderr: true
    })) as unknown as NodeJS.ReadableStream
    const both = new PassThrough()
    this.container.modem.demuxStream(logs, both, both)
    this.logsDone = new Promise(resolve => {
      logs.on('end', resolve)
      logs.on('error', resolve)
    })
    both.pipe(this.tailBuf)
    // A wait that breaks (daemon gone, container removed under us) counts as an exit too.
    const exited = this.container
      .wait()
      .then((r: { StatusCode: number }) => r.StatusCode)
      .catch(() => -1)
    return { exited }
  }

  /** The last log lines, after the log stream has drained (bounded wait). */
  async tail(): Promise<string> {
    await withTimeout(this.logsDone, 2000, 'log stream').catch(() => undefined)
    return this.tailBuf.text()
  }

  async remove(): Promise<void> {
    await removeContainer(this.container)
  }
}

export interface RunOnceSpec {
  name: string
  image: string
  entrypoint: string[]
  cmd: string[]
  labels: Record<string, string>
  network?: string
  /** Files to put into a directory of the container before it starts. */
  files?: { dir: string; files: { name: string; content: Buffer }[] }
  timeoutMs: number
  /** When this rejects, the container is killed at once. */
  cancel?: Promise<unknown>
}

export interface RunOnceResult {
  exitCode: number
  stdout: string
  stderr: string
}

/** Runs a short-lived container to completion, collecting its output; always removes it. */
export async function runOnce(docker: Docker, spec: RunOnceSpec): Promise<RunOnceResult> {
  const container = await docker.createContainer({
    name: spec.name,
    Image: spec.image,
    Entrypoint: spec.entrypoint,
    Cmd: spec.cmd,
    Env: ['PYTHONUNBUFFERED=1'],
    Labels: spec.labels,
    HostConfig: spec.network ? { NetworkMode: spec.network } : {}
  })
  try {
    if (spec.files) await putContainerFiles(container, spec.files.dir, spec.files.files)
    const stream = await container.attach({ stream: true, stdout: true, stderr: true })
    const out: Buffer[] = []
    const err: Buffer[] = []
    const collect = (into: Buffer[]) =>
      new Writable({
        write(chunk: Buffer, _e, done) {
          into.push(chunk)
          done()
        }
      })
    container.modem.demuxStream(stream, collect(out), collect(err))
    const ended = new Promise(resolve => stream.on('end', resolve))
    await container.start()
    const kill = () => container.kill().catch(() => undefined)
    spec.cancel?.catch(kill)
    let exitCode: number
    try {
      const r = await withTimeout(container.wait(), spec.timeoutMs, spec.name)
      exitCode = (r as { StatusCode: number }).StatusCode
    } catch (e) {
      await kill()
      throw e
    }
    await withTimeout(ended, 2000, 'output').catch(() => undefined)
    return {
      exitCode,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8')
    }
  } finally {
    await removeContainer(container)
  }
}
