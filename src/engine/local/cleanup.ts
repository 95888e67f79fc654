import * as fs from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Log } from '../../log'
import { count } from '../../text/count'
import { STOP_GRACE_MS } from '../lifecycle'
import { carriesMark, procStat, type ProcessGroup, type ProcStat } from './process-groups'

/**
 * After a local run whose main process was killed: its services die with it (the parent-death
 * signal), but what they started in their groups does not. This finds what is left of the groups
 * the run recorded and stops it.
 */

/** A process of a recorded group, known by its pid and start time. */
export interface Leftover {
  pid: number
  start: number
  /** Its command's name, for the message. */
  name: string
}

function liveProcesses(): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter(d => /^\d+$/.test(d))
    .flatMap(d => procStat(Number(d)) ?? [])
}

/**
 * The processes left of `group`. A leader alive with its recorded start time is the service: its
 * whole group goes. A leader alive with another start time is another process under a reused pid:
 * nothing of the group is left (a pid is not reused while a group carries it), so nothing goes.
 * A leader gone, the members still in its group go if they carry the run's mark, since a group
 * made anew under that id (a daemon's double fork) is another's.
 */
export function leftoversOf(group: ProcessGroup, live: readonly ProcStat[]): ProcStat[] {
  const leader = live.find(p => p.pid === group.pgid)
  if (leader && leader.start !== group.start) return []
  const members = live.filter(p => p.pgrp === group.pgid)
  return leader ? members : members.filter(p => carriesMark(p.pid, group.runId))
}

const commandName = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return '?'
  }
}

/** The live processes of the recorded groups. */
export function findLeftovers(groups: readonly ProcessGroup[]): Leftover[] {
  const live = liveProcesses()
  return groups
    .flatMap(g => leftoversOf(g, live))
    .map(p => ({ pid: p.pid, start: p.start, name: commandName(p.pid) }))
}

/** Whether the very process `p` (not a later one under its pid) still runs. */
const running = (p: Leftover): boolean => procStat(p.pid)?.start === p.start

function signal(ps: readonly Leftover[], sig: NodeJS.Signals): void {
  for (const p of ps) {
    if (!running(p)) continue
    try {
      process.kill(p.pid, sig)
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Polls until none of `ps` runs, or `ms` passed; returns those still running. */
async function waitGone(ps: readonly Leftover[], ms: number): Promise<Leftover[]> {
  const until = Date.now() + ms
  let left = ps.filter(running)
  while (left.length && Date.now() < until) {
    await sleep(50)
    left = left.filter(running)
  }
  return left
}

/** SIGTERM, then SIGKILL to what still runs after `graceMs`; returns those that needed SIGKILL. */
export async function stopLeftovers(ps: readonly Leftover[], graceMs: number): Promise<Leftover[]> {
  signal(ps, 'SIGTERM')
  const ignoredTerm = await waitGone(ps, graceMs)
  signal(ignoredTerm, 'SIGKILL')
  await waitGone(ignoredTerm, 1000)
  return ignoredTerm
}

const described = (ps: readonly Leftover[]): string =>
  ps.map(p => `pid ${p.pid} (${p.name})`).join(', ')

/** The local engine's cleanup after a run: stops what is left of its recorded groups. */
export async function cleanUpRun(
  { groups }: { groups: readonly ProcessGroup[] },
  log: Log,
  graceMs = STOP_GRACE_MS
): Promise<void> {
  const found = findLeftovers(groups)
  if (!found.length) {
    log.info('the local engine left no process running; nothing to clean up')
    return
  }
  const killed = await stopLeftovers(found, graceMs)
  const sigkillNote = killed.length
    ? `; ${count(killed.length, 'process', 'processes')} ignored SIGTERM for ${graceMs / 1000} s and got SIGKILL: ${described(killed)}`
    : ''
  log.info(
    `stopped ${count(found.length, 'process', 'processes')} the local engine left: ${described(found)}${sigkillNote}`
  )
}
