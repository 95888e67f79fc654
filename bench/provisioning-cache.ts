/**
 * What the provisioning cache costs and saves, as a later job on a fresh runner meets it: the
 * cache's tarball packed as `@actions/cache` packs it (tar, zstd --long=30), unpacked into a
 * runner that has nothing, and GNES made ready from it: the image loaded into a second Docker
 * daemon with an empty data root (the runner's own daemon keeps its images), and the venv
 * unpacked at its own path (venvs are not relocatable; the one there is set aside meanwhile).
 * The download itself is GitHub's and is not measured here, nor is the base image's pull, which
 * the engine needs to know what the base is now (each empty daemon gets it untimed).
 * Usage: npm run bench:provisioning-cache -- [--repeats 3] (root, dockerd and zstd on PATH; the
 * GNES image of scripts/docker-setup.sh on the running daemon, the 0.0.47 venv in the cache).
 */
import { execFileSync, spawn } from 'node:child_process'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { ensureImage } from '../src/engine/docker/image'
import { ensureGnesVenv } from '../src/engine/local/venv'
import { loadAverage } from './machine'

const VERSION = '0.0.47'
const BASE = process.env.GLB_BASE_IMAGE || 'python:3.11-slim'

const seconds = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e9
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const sh = (cmd: string): void => void execFileSync('bash', ['-c', cmd], { stdio: 'inherit' })

/** Packs `dir` as the cache does: tar of the absolute path, zstd with a long window. */
function pack(dir: string, tarball: string): number {
  const t = process.hrtime.bigint()
  sh(
    `tar --posix -cf - -P ${JSON.stringify(dir)} | zstd -q -T0 --long=30 -f -o ${JSON.stringify(tarball)}`
  )
  return seconds(t)
}

function unpack(tarball: string): number {
  const t = process.hrtime.bigint()
  sh(`zstd -q -d --long=30 -c ${JSON.stringify(tarball)} | tar -xf - -P`)
  return seconds(t)
}

/**
 * A second daemon with nothing in it, as a fresh runner's is. It gets a bridge of its own: with
 * `--bridge=none` dockerd deletes the host's `docker0`, and the running daemon's containers would
 * lose their network.
 */
async function freshDaemon(root: string): Promise<{ docker: Docker; stop: () => Promise<void> }> {
  const socket = path.join(root, 'docker.sock')
  const bridge = `glbprov${process.pid % 100000}`
  sh(`ip link add name ${bridge} type bridge`)
  const child = spawn(
    'dockerd',
    [
      `--data-root=${path.join(root, 'data')}`,
      `--exec-root=${path.join(root, 'exec')}`,
      `--pidfile=${path.join(root, 'dockerd.pid')}`,
      `--host=unix://${socket}`,
      `--bridge=${bridge}`,
      '--iptables=false',
      '--ip6tables=false'
    ],
    { stdio: ['ignore', fs.openSync(path.join(root, 'dockerd.log'), 'w'), 'ignore'] }
  )
  const exited = new Promise(r => child.on('exit', r))
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM')
    await exited
    sh(`ip link del ${bridge}`)
  }
  const docker = new Docker({ socketPath: socket })
  for (let i = 0; i < 60; i++) {
    try {
      await docker.ping()
      return { docker, stop }
    } catch {
      await sleep(500)
    }
  }
  child.kill('SIGKILL')
  await stop()
  throw new Error(`the second dockerd did not answer; see ${path.join(root, 'dockerd.log')}`)
}

/**
 * The base image into an empty daemon as a runner gets it, pulled; loaded from its archive where
 * no registry answers (a loaded image has no RepoDigest, as the stand-in the running daemon has).
 */
async function giveBase(docker: Docker, archive: string): Promise<void> {
  const follow = (stream: NodeJS.ReadableStream) =>
    new Promise((resolve, reject) =>
      docker.modem.followProgress(stream, e => (e ? reject(e) : resolve(null)))
    )
  try {
    await follow(await docker.pull(BASE))
  } catch {
    await follow(await docker.loadImage(fs.createReadStream(archive)))
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { repeats: { type: 'string', default: '3' } } })
  const repeats = Number(values.repeats)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'glb-provisioning-'))
  console.log(
    `provisioning cache, GNES ${VERSION}, ${repeats} repeats; load average before: ${loadAverage()}`
  )

  // Docker: the archive the first job saves, then a fresh runner's restore and load.
  const base = path.join(work, 'base.tar')
  await pipeline(await new Docker().getImage(BASE).get(), fs.createWriteStream(base))
  const archives = path.join(work, 'images')
  let t = process.hrtime.bigint()
  const tag = await ensureImage(
    new Docker(),
    { kind: 'pypi', version: VERSION, baseImage: BASE, archives },
    l => console.log(`  ${l}`)
  )
  const saved = seconds(t)
  const tarball = path.join(work, 'images.tzst')
  const packed = pack(archives, tarball)
  console.log(
    `docker: first job saves ${tag} as an archive in ${saved.toFixed(1)} s, packs it in ${packed.toFixed(1)} s (${(fs.statSync(tarball).size / 1e6).toFixed(0)} MB packed)`
  )
  const docker = { unpack: [] as number[], load: [] as number[] }
  for (let i = 0; i < repeats; i++) {
    fs.rmSync(archives, { recursive: true })
    // A fresh runner's disk has no earlier repeat's writes and deletions to flush: a daemon
    // syncs its file system as it loads, and would pay for them (repeats ran ever slower).
    sh('sync')
    docker.unpack.push(unpack(tarball))
    const root = fs.mkdtempSync(path.join(work, 'daemon-'))
    const fresh = await freshDaemon(root)
    try {
      await giveBase(fresh.docker, base)
      t = process.hrtime.bigint()
      await ensureImage(
        fresh.docker,
        { kind: 'pypi', version: VERSION, baseImage: BASE, archives },
        () => undefined
      )
      docker.load.push(seconds(t))
    } finally {
      await fresh.stop()
      fs.rmSync(root, { recursive: true, force: true })
    }
    console.log(
      `  repeat ${i + 1}: unpack ${docker.unpack[i].toFixed(1)} s, load into an empty daemon ${docker.load[i].toFixed(1)} s; load average ${loadAverage()}`
    )
  }

  // Local engine: the venv packed, and unpacked at its own path on a runner without it.
  const venv = (await ensureGnesVenv(VERSION, l => console.log(`  ${l}`))).dir
  const venvBall = path.join(work, 'venv.tzst')
  const venvPacked = pack(venv, venvBall)
  console.log(
    `local: the venv packs in ${venvPacked.toFixed(1)} s (${(fs.statSync(venvBall).size / 1e6).toFixed(0)} MB packed)`
  )
  const aside = `${venv}.aside-${process.pid}`
  fs.renameSync(venv, aside)
  const local = { unpack: [] as number[], ready: [] as number[] }
  try {
    for (let i = 0; i < repeats; i++) {
      fs.rmSync(venv, { recursive: true, force: true })
      sh('sync')
      local.unpack.push(unpack(venvBall))
      t = process.hrtime.bigint()
      const v = await ensureGnesVenv(VERSION, l => console.log(`  ${l}`))
      execFileSync(v.python, ['-c', 'import gnes.cli.parser'])
      local.ready.push(seconds(t))
      console.log(
        `  repeat ${i + 1}: unpack ${local.unpack[i].toFixed(1)} s, venv ready and GNES imported ${local.ready[i].toFixed(1)} s; load average ${loadAverage()}`
      )
    }
  } finally {
    fs.rmSync(venv, { recursive: true, force: true })
    fs.renameSync(aside, venv)
  }

  // Without the cache, for comparison: the image built on an empty daemon (its base loaded
  // first, not counted; GNES and its dependencies from PyPI, so the second daemon's bridge must
  // reach the index, which its `--iptables=false` does not set up), and the venv installed from
  // PyPI into an empty cache directory.
  const root = fs.mkdtempSync(path.join(work, 'daemon-'))
  const fresh = await freshDaemon(root)
  let built: number
  try {
    await giveBase(fresh.docker, base)
    t = process.hrtime.bigint()
    await ensureImage(
      fresh.docker,
      { kind: 'pypi', version: VERSION, baseImage: BASE, archives: null },
      () => undefined
    )
    built = seconds(t)
  } finally {
    await fresh.stop()
    fs.rmSync(root, { recursive: true, force: true })
  }
  const cache = process.env.GNES_BENCH_CACHE
  process.env.GNES_BENCH_CACHE = path.join(work, 'empty-cache')
  t = process.hrtime.bigint()
  await ensureGnesVenv(VERSION, () => undefined)
  const installed = seconds(t)
  if (cache === undefined) delete process.env.GNES_BENCH_CACHE
  else process.env.GNES_BENCH_CACHE = cache
  fs.rmSync(work, { recursive: true, force: true })
  console.log(
    `without the cache: the image built on an empty daemon in ${built.toFixed(1)} s, the venv installed in ${installed.toFixed(1)} s; load average ${loadAverage()}`
  )

  const total = (a: number[], b: number[]) => median(a.map((x, i) => x + b[i]))
  console.log(
    `\nmedian of ${repeats}, provisioning on a fresh runner with the cache restored (download not counted):`
  )
  console.log(
    `  docker: unpack ${median(docker.unpack).toFixed(1)} s + load ${median(docker.load).toFixed(1)} s = ${total(docker.unpack, docker.load).toFixed(1)} s`
  )
  console.log(
    `  local:  unpack ${median(local.unpack).toFixed(1)} s + ready ${median(local.ready).toFixed(1)} s = ${total(local.unpack, local.ready).toFixed(1)} s`
  )
  console.log(`load average after: ${loadAverage()}`)
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
