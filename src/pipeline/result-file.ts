import * as fs from 'node:fs'
import * as path from 'node:path'
import { describeIssues } from '../history/errors'
import { RESULT_SCHEMA, ResultSchema, type Result } from '../result/schema'

/** Writes `result.json` (the latest) and a copy named by its start time, never overwriting one. */
export function writeResult(result: Result, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true })
  const json = `${JSON.stringify(result, null, 2)}\n`
  const stamp = result.meta.startedAt.replace(/[:.]/g, '-')
  fs.writeFileSync(path.join(outDir, `result-${stamp}.json`), json, { flag: 'wx' })
  const latest = path.join(outDir, 'result.json')
  fs.writeFileSync(`${latest}.tmp`, json)
  fs.renameSync(`${latest}.tmp`, latest)
  return latest
}

const versionOf = (tag: string): number => Number(/\/result@(\d+)$/.exec(tag)?.[1] ?? NaN)

/** Why a result of another schema version cannot be read, or null for the current one. */
function otherVersion(raw: unknown): string | null {
  const tag = (raw as { schema?: unknown } | null)?.schema
  if (typeof tag !== 'string' || tag === RESULT_SCHEMA || Number.isNaN(versionOf(tag))) return null
  return versionOf(tag) > versionOf(RESULT_SCHEMA)
    ? `written by a newer gnes-latency-bench (${tag}); this one reads ${RESULT_SCHEMA}: update it`
    : `a ${tag} result of an earlier gnes-latency-bench; this one reads ${RESULT_SCHEMA} only`
}

/**
 * A result file, validated as untrusted input (it may come from another machine); the error names
 * it (as `label`, e.g. the flag) and what is wrong: at most three problems, each with its path.
 */
export function readResult(file: string, label = 'result file'): Result {
  let raw: unknown
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`${label} ${file}: cannot read a JSON result: ${(err as Error).message}`)
  }
  const other = otherVersion(raw)
  if (other) throw new Error(`${label} ${file}: ${other}`)
  const parsed = ResultSchema.safeParse(raw)
  if (!parsed.success) {
    const issues = parsed.error.issues
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''
    const shown = describeIssues({ issues: issues.slice(0, 3) })
    throw new Error(`${label} ${file}: not a suite result: ${shown}${more}`)
  }
  return parsed.data
}
