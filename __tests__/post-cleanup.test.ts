/**
 * The `post:` step's cleanup after the local engine: real processes started as the local engine
 * starts its services (ServiceProcess: its own group, the parent-death shim, the run's mark), the
 * groups recorded as the action's main step saves them, and the cleanup handed that record.
 *
 * @side-by-side: which processes are left; no figure.
 */
import { spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { STATE_ENGINE } from '../src/action/state'
import { cleanUpRun, type CleanupRecord } from '../src/engine/cleanup'
import { LogTail } from '../src/engine/log-tail'
import {
  PROCESS_GROUPS,
  procStat,
  RUN_MARK,
  watchProcessGroups
} from '../src/engine/local/process-groups'
import { ServiceProcess } from '../src/engine/local/process'
import type { ProcessGroup } from '../src/engine/local/process-groups'
import type { Log } from '../src/log'
import { bundle, buildEntry } from './helpers/bundle'
import { pidsWithEnv, sleep, survivors } from './helpers/processes'
import { tmp } from './helpers/tmp'

const root = path.join(__dirname, '..')

/** A Log that keeps what it is told. */
function keptLog(): Log & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: m => lines.push(m),
    warn: m => lines.push(`warning: ${m}`),
    group: (_name, work) => work()
  }
}

/** A service of run `runId` as the local engine starts one. */
const service = (runId: string, [executable, ...args]: string[]): ServiceProcess =>
  new ServiceProcess({
    runId,
    python: 'python3',
    executable,
    args,
    output: new LogTail(path.join(tmp(), 'service.log'))
  })

const localRecord = (groups: ProcessGroup[]): CleanupRecord => ({ engine: 'local', groups })

/**
 * The command names of the processes that carry run `runId`'s mark, sorted. What runs `python3`
 * (the parent-death shim) may be a wrapper that starts helpers of its own before the service
 * replaces it, so tests wait for the services by name.
 */
const marked = (runId: string): string[] =>
  pidsWithEnv(RUN_MARK, runId)
    .map(pid => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
      } catch {
        return ''
      }
    })
    .sort()

/** Waits until `ready` holds, or fails after `ms`. */
async function until(ready: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!ready() && Date.now() < end) await sleep(50)
  expect(ready()).toBe(true)
}

test('the record follows the services: a group is kept while its service runs', async () => {
  const runId = randomUUID()
  let groups: ProcessGroup[] = []
  const stop = watchProcessGroups(g => (groups = g))
  const proc = service(runId, ['sleep', '300'])
  await until(() => marked(runId).join() === 'sleep')
  expect(groups).toEqual([{ pgid: proc.child.pid, start: procStat(proc.child.pid!)!.start, runId }])
  await proc.stop(100)
  expect(groups).toEqual([])
  stop()
})

test('stops what still runs of the recorded groups, SIGTERM first, SIGKILL for what ignores it', async () => {
  const runId = randomUUID()
  let groups: ProcessGroup[] = []
  const stop = watchProcessGroups(g => (groups = g))
  const polite = service(runId, ['sleep', '300'])
  // The shell and its sleep both ignore SIGTERM (an ignored signal stays ignored across exec).
  const ignoresTerm = service(runId, ['sh', '-c', "trap '' TERM; sleep 300; true"])
  await until(() => marked(runId).join() === 'sh,sleep,sleep')
  const record = localRecord(groups)
  stop()
  const log = keptLog()
  const t0 = Date.now()
  await cleanUpRun(record, log)
  expect(pidsWithEnv(RUN_MARK, runId)).toEqual([])
  // Those ignoring SIGTERM waited for the grace; SIGTERM alone ended the polite one.
  expect(Date.now() - t0).toBeGreaterThanOrEqual(2000)
  expect(await polite.exited).toBeNull()
  expect(await ignoresTerm.exited).toBeNull()
  expect(log.lines).toHaveLength(1)
  expect(log.lines[0]).toMatch(/^stopped 3 processes the local engine left: pid \d+ \(sleep\)/)
  expect(log.lines[0]).toMatch(
    /; 2 processes ignored SIGTERM for 2 s and got SIGKILL: pid \d+ \(sh\), pid \d+ \(sleep\)$/
  )
})

test('never takes another process for a recorded one: a reused pid, or a stranger in a group whose leader is gone', async () => {
  const runId = randomUUID()
  // A pid the record names, now another process's (its start time differs from the record's).
  const stranger = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' })
  // A group whose leader has gone, left with a member that carries no mark of the run.
  const orphaning = spawn('sh', ['-c', 'sleep 300 & echo $!'], { detached: true })
  const orphan = Number(await new Promise<string>(r => orphaning.stdout!.once('data', r)))
  await until(() => procStat(stranger.pid!) !== null && procStat(orphan) !== null)
  await until(() => procStat(orphaning.pid!) === null)
  const log = keptLog()
  await cleanUpRun(
    localRecord([
      { pgid: stranger.pid!, start: procStat(stranger.pid!)!.start - 1, runId },
      { pgid: orphaning.pid!, start: 0, runId }
    ]),
    log
  )
  expect(log.lines).toEqual(['the local engine left no process running; nothing to clean up'])
  expect(procStat(stranger.pid!)).not.toBeNull()
  expect(procStat(orphan)?.pgrp).toBe(orphaning.pid)
  stranger.kill('SIGKILL')
  process.kill(orphan, 'SIGKILL')
})

/** A main step that starts one service, saves its state as the action does, and waits. */
const MAIN = `
import * as core from '@actions/core'
import { keepCleanupState, STATE_ENGINE } from '${root}/src/action/state'
import { LogTail } from '${root}/src/engine/log-tail'
import { ServiceProcess } from '${root}/src/engine/local/process'
core.saveState(STATE_ENGINE, 'local')
keepCleanupState()
// The shell dies with this process (the parent-death signal); the sleep it started does not.
new ServiceProcess({
  runId: process.env.GLB_RUN_ID,
  python: 'python3',
  executable: 'sh',
  args: ['-c', 'sleep 300 & wait'],
  output: new LogTail(null)
})
setInterval(() => undefined, 1000)
`

/** The last value saved under `name` in an Actions state file (`name<<delimiter`, value, delimiter). */
function lastState(file: string, name: string): string | undefined {
  const saved = [
    ...fs.readFileSync(file, 'utf8').matchAll(new RegExp(`^${name}<<(.+)\\n([^]*?)\\n\\1$`, 'gm'))
  ]
  return saved.at(-1)?.[2]
}

test('the post step stops what a killed main step of the local engine left running', async () => {
  // Beside the bundles, so the main step's own imports resolve as the project's do.
  const source = path.join(root, 'build', 'post-cleanup-main.ts')
  fs.mkdirSync(path.dirname(source), { recursive: true })
  fs.writeFileSync(source, MAIN)
  const main = await bundle(source, 'post-cleanup-main.js')
  const post = await buildEntry('post')
  const runId = randomUUID()
  const stateFile = path.join(tmp(), 'state')
  fs.writeFileSync(stateFile, '')
  const proc = spawn(process.execPath, [main], {
    env: { ...process.env, GITHUB_STATE: stateFile, GLB_RUN_ID: runId },
    stdio: 'ignore'
  })
  await until(() => marked(runId).join() === 'sh,sleep')
  await until(() => JSON.parse(lastState(stateFile, PROCESS_GROUPS.key) ?? '[]').length === 1)
  proc.kill('SIGKILL')
  // The service's shell goes with its parent; the sleep it started stays, as a killed step leaves it.
  await until(() => marked(runId).join() === 'sleep')
  const r = spawnSync(process.execPath, [post], {
    env: {
      ...process.env,
      [`STATE_${STATE_ENGINE}`]: lastState(stateFile, STATE_ENGINE),
      [`STATE_${PROCESS_GROUPS.key}`]: lastState(stateFile, PROCESS_GROUPS.key)
    },
    encoding: 'utf8'
  })
  expect(r.status).toBe(0)
  expect(r.stdout).toMatch(/^stopped 1 process the local engine left: pid \d+ \(sleep\)$/m)
  expect(await survivors(RUN_MARK, runId, 2000)).toEqual([])
})
