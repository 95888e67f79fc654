import * as fs from 'node:fs'
import { DEFAULTS } from '../config/inputs'
import { historyLocation, type HistoryLocation } from '../pipeline'
import type { Flag } from './command'

type Values = Record<string, string | boolean | undefined>

/** Flags naming where the history lives, shared by run, record, import-legacy and prune. */
export const HISTORY_FLAGS: Record<string, Flag> = {
  'history-dir': {
    type: 'string',
    description:
      'The history: a plain directory, or with --history-repository the directory on its branch.',
    default: 'benchmarks on a branch'
  },
  'history-repository': {
    type: 'string',
    description:
      'A git repository (local path or URL) whose --gh-pages-branch holds the history, as on Actions.'
  },
  'gh-pages-branch': { type: 'string' },
  'github-token': {
    type: 'string',
    description:
      'Token for fetching and pushing the branch; the GITHUB_TOKEN variable when absent (kept out of the process list).'
  },
  'adopt-branch': { type: 'boolean' }
}

export const flagText = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null

/**
 * A plain directory, or with --history-repository (a local path or URL) a directory on a branch
 * of that git repository, as on Actions. `defaultDir` applies to the plain directory only. The
 * token comes from --github-token or, kept out of the process list, the GITHUB_TOKEN variable.
 */
export function flagLocation(values: Values, defaultDir?: string): HistoryLocation {
  const repository = flagText(values['history-repository'])
  const dir = flagText(values['history-dir'])
  const local = dir ?? defaultDir
  if (!repository && !local) {
    throw new Error('--history-dir DIR (or --history-repository PATH) is needed')
  }
  return historyLocation({
    repository,
    branch: flagText(values['gh-pages-branch']) ?? DEFAULTS['gh-pages-branch'],
    dir: (repository ? dir : local) ?? DEFAULTS['history-dir'],
    token: flagText(values['github-token']) ?? flagText(process.env.GITHUB_TOKEN),
    adopt: values['adopt-branch'] === true || flagText(values['adopt-branch']) === 'true'
  })
}

/** A history directory that must exist already (render, compare, prune read it). */
export function existingHistoryDir(dir: string): string {
  if (!fs.existsSync(dir)) throw new Error(`--history-dir ${dir}: no such directory`)
  if (!fs.statSync(dir).isDirectory()) throw new Error(`--history-dir ${dir}: not a directory`)
  return dir
}
