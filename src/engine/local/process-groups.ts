import * as fs from 'node:fs'
import { z } from 'zod'
import type { SavedPart } from '../entry'

/**
 * The process groups of the local engine's services, as a later step finds them again: each
 * service runs in a group of its own (its process is the leader, the group's id its pid), and
 * every process of a run carries the run's mark in its environment.
 */

/** The environment variable that marks every process of a local run with the run's id. */
export const RUN_MARK = 'GNES_BENCH_SUITE'

/**
 * A service's process group: its id, its leader's start time (clock ticks since boot, from
 * /proc), and the run whose mark its processes carry. A pid handed to another process since has
 * another start time, so it is never taken for the service's.
 */
export const ProcessGroupSchema = z.object({
  pgid: z.number().int().positive(),
  start: z.number().int().nonnegative(),
  runId: z.string().min(1)
})
export type ProcessGroup = z.infer<typeof ProcessGroupSchema>

/** A live process as /proc/<pid>/stat tells it. */
export interface ProcStat {
  pid: number
  /** Its process group's id. */
  pgrp: number
  /** When it started, in clock ticks since boot. */
  start: number
}

/** A live process's group and start time; null once it is gone (a zombie has finished too). */
export function procStat(pid: number): ProcStat | null {
  let text: string
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The fields after the command, which may hold spaces and parentheses: field 3 (state) first.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z' || fields[0] === 'X') return null
  return { pid, pgrp: Number(fields[2]), start: Number(fields[19]) }
}

/** Whether a process's environment carries run `runId`'s mark. */
export function carriesMark(pid: number, runId: string): boolean {
  try {
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8')
    return environ.split('\0').includes(`${RUN_MARK}=${runId}`)
  } catch {
    return false
  }
}

/** The groups of this Node process's live services, and who is told whenever they change. */
const groups = new Map<number, ProcessGroup>()
const watchers = new Set<(groups: ProcessGroup[]) => void>()

/**
 * Tells `watcher` the live groups after every start and end of a service (the action saves them
 * for its `post:` step); returns the function that stops telling it.
 */
export function watchProcessGroups(watcher: (groups: ProcessGroup[]) => void): () => void {
  watchers.add(watcher)
  return () => watchers.delete(watcher)
}

const tell = (): void => {
  const now = [...groups.values()]
  for (const watcher of watchers) watcher(now)
}

/** A service's group started under `pid` (its leader), marked with `runId`. */
export function groupStarted(pid: number, runId: string): void {
  const stat = procStat(pid)
  // Gone already: nothing is left to find.
  if (!stat) return
  groups.set(pid, { pgid: pid, start: stat.start, runId })
  tell()
}

/** The leader of group `pid` has exited: its service stopped. */
export function groupEnded(pid: number): void {
  if (groups.delete(pid)) tell()
}

const fields = { groups: z.array(ProcessGroupSchema) }

/**
 * The local engine's part of the cleanup record: its live process groups (JSON), saved whenever a
 * service starts or ends; the cleanup stops what is left of them.
 */
export const PROCESS_GROUPS: SavedPart<typeof fields> = {
  key: 'local-processes',
  fields,
  keep(save) {
    watchProcessGroups(live => save(JSON.stringify(live)))
    return {}
  },
  decode: text => ({ groups: text ? JSON.parse(text) : [] })
}
