import type Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { Writable } from 'node:stream'
import { withTimeout } from '../deadline'
import type { Placement } from '../platform'
import type { LogTail } from '../log-tail'
import { putContainerFiles, tarOf } from './archive'
import { statusOf } from './client'
import { NO_HEALTHCHECK } from './health'

/** Removes a container whatever its state; a container already gone is fine. */
export async function removeContainer(container: Docker.Container): Promise<void> {
  try {
    await container.remove({ force: true, v: true })
  } catch (err) {
    if (statusOf(err) !== 404 && statusOf(err) !== 409) throw err
  }
}

/**
 * Demultiplexes an Engine API log or attach stream (no TTY) into `output`, and ends `output` when
 * the stream ends; container, service and task logs all come this way.
 */
export function pipeOutput(
  modem: Docker['modem'],
  stream: NodeJS.ReadableStream,
  output: LogTail
): void {
  modem.demuxStream(stream, output, output)
  const end = () => output.finish()
  stream.on('end', end)
  stream.on('error', end)
}

/**
 * Creates, starts and follows one container, `files` (paths from `/`) written into it before it
 * starts; `exited` resolves with its exit code.
 */
export async function startContainer(
  docker: Docker,
  options: Docker.ContainerCreateOptions,
  output: LogTail,
  files: { name: string; content: Buffer; mode?: number }[] = []
): Promise<{ container: Docker.Container; exited: Promise<number> }> {
  const container = await docker.createContainer(options)
  // The daemon makes the directories an archive's entries lie in.
  if (files.length) await container.putArchive(tarOf(files), { path: '/' })
  await container.start()
  const logs = (await container.logs({
    follow: true,
    stdout: true,
    stderr: true
  })) as unknown as NodeJS.ReadableStream
  pipeOutput(container.modem, logs, output)
  // A wait that breaks (daemon gone, container removed under us) counts as an exit too.
  const exited = container
    .wait()
    .then((r: { StatusCode: number }) => r.StatusCode)
    .catch(() => -1)
  return { container, exited }
}

interface ScriptContainerSpec {
  name: string
  image: string
  /** The script on this host. */
  script: string
  args: string[]
  labels: Record<string, string>
  /** The topology's network (a bridge, or an attachable overlay on Swarm). */
  network: string
}

/**
 * A script (the load client) in a throwaway container on the topology's network (Docker and Swarm
 * alike): it goes in with putArchive, its output into `output`; killed when `cancel` rejects,
 * always removed.
 */
async function runScriptContainer(
  docker: Docker,
  spec: ScriptContainerSpec,
  output: LogTail,
  cancel: Promise<never>
): Promise<number> {
  const file = path.basename(spec.script)
  const container = await docker.createContainer({
    name: spec.name,
    Image: spec.image,
    Entrypoint: ['python', `/tmp/${file}`],
    Cmd: spec.args,
    Env: ['PYTHONUNBUFFERED=1'],
    Labels: spec.labels,
    // It runs during the measured windows: no HEALTHCHECK of its image runs beside it.
    Healthcheck: NO_HEALTHCHECK,
    HostConfig: { NetworkMode: spec.network }
  })
  try {
    await putContainerFiles(container, '/tmp', [
      { name: file, content: fs.readFileSync(spec.script) }
    ])
    const stream = await container.attach({ stream: true, stdout: true, stderr: true })
    pipeOutput(container.modem, stream, output)
    await container.start()
    cancel.catch(() => container.kill().catch(() => undefined))
    const r = (await container.wait()) as { StatusCode: number }
    return r.StatusCode
  } finally {
    await removeContainer(container)
  }
}

/** A driver's runScript, Docker and Swarm alike: each script in a container `<prefix>-<name>`. */
export const scriptRunner =
  (
    docker: Docker,
    on: { prefix: string; image: string; labels: Record<string, string>; network: string }
  ): Placement['runScript'] =>
  (name, script, args, output, cancel) =>
    runScriptContainer(
      docker,
      {
        name: `${on.prefix}-${name}`,
        image: on.image,
        script,
        args,
        labels: on.labels,
        network: on.network
      },
      output,
      cancel
    )

interface RunOnceSpec {
  name: string
  image: string
  entrypoint: string[]
  cmd: string[]
  labels: Record<string, string>
  timeoutMs: number
}

interface RunOnceResult {
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
    Labels: spec.labels
  })
  try {
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
    let exitCode: number
    try {
      const r = await withTimeout(container.wait(), spec.timeoutMs, spec.name)
      exitCode = (r as { StatusCode: number }).StatusCode
    } catch (e) {
      await container.kill().catch(() => undefined)
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
