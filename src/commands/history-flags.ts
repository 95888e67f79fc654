import * as fs from 'node:fs'
import { DEFAULTS } from '../config/inputs'
import { checkRepository } from '../history/git'
import type { HistoryLocation } from '../record'

type Values = Record<string, string | boolean | undefined>

/** Flags naming where the history lives, shared by run, import-legacy and prune. */
export const HISTORY_FLAGS = {
  'history-dir': { type: 'string' },
  'history-repository': { type: 'string' },
  'gh-pages-branch': { type: 'string' },
  'github-token': { type: 'string' },
  'adopt-branch': { type: 'boolean' }
} as const

export const flagText = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null

/**
 * A plain directory, or with --history-repository (a local path or URL) a directory on a branch
 * of that git repository, as on Actions. `defaultDir` applies to the plain directory only. The
 * token comes from --github-token or, kept out of the process list, the GITHUB_TOKEN variable.
 */
export function historyLocation(values: Values, defaultDir?: string): HistoryLocation {
  const repo = flagText(values['history-repository'])
  const dir = flagText(values['history-dir'])
  if (repo) {
    return {
      kind: 'branch',
      repo: checkRepository(repo),
      branch: flagText(values['gh-pages-branch']) ?? DEFAULTS['gh-pages-branch'],
      dir: dir ?? DEFAULTS['history-dir'],
      token: flagText(values['github-token']) ?? flagText(process.env.GITHUB_TOKEN) ?? undefined,
      adopt: values['adopt-branch'] === true || flagText(values['adopt-branch']) === 'true'
    }
  }
  const local = dir ?? defaultDir
  if (!local) throw new Error('--history-dir DIR (or --history-repository PATH) is needed')
  return { kind: 'dir', dir: local }
}

/** A history directory that must exist already (render, compare, prune read it). */
export function existingHistoryDir(dir: string): string {
  if (!fs.existsSync(dir)) throw new Error(`--history-dir ${dir}: no such directory`)
  if (!fs.statSync(dir).isDirectory()) throw new Error(`--history-dir ${dir}: not a directory`)
  return dir
}
