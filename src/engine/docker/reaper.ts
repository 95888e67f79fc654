import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import { assetPath } from '../../paths'
import { sweep, type Swept } from './cleanup'

/**
 * The reaper: a process of its own that outlives a killed command line, as testcontainers' Ryuk
 * does for its containers. Each Docker or Swarm run starts one (detached, in its own process
 * group, so a Ctrl-C or a SIGKILL of the run does not reach it); it watches the run's process and,
 * once that is gone however it ended, removes every resource labelled with the run's id. A run
 * that ended normally has removed them already: the reaper then finds nothing.
 */

/** How often the reaper looks whether its owner still runs. */
const WATCH_MS = 500

/** The bundled reaper (scripts/bundle.mjs): the action, the CLI and the tests start the same file. */
const REAPER = (): string => assetPath('dist', 'reaper.js')

/** Starts the reaper of `runId`, owned by this process. Says so, or why it could not. */
export function startReaper(runId: string, log: (line: string) => void): void {
  const script = REAPER()
  if (!fs.existsSync(script)) {
    log(`no reaper (${script} is missing: npm run build): a killed run leaves its containers`)
    return
  }
  const child = spawn(process.execPath, [script, String(process.pid), runId], {
    detached: true,
    stdio: 'ignore'
  })
  child.unref()
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The reaper's own body: waits for `owner` to end, then sweeps `runId`. */
export async function reap(owner: number, runId: string): Promise<Swept> {
  while (alive(owner)) await new Promise(resolve => setTimeout(resolve, WATCH_MS))
  return sweep({ runId })
}
