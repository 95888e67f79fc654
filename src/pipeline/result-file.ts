import * as fs from 'node:fs'
import * as path from 'node:path'
import { ResultSchema, type Result } from '../result/schema'

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

/** A result file written by a run; the error names it (as `label`, e.g. the flag) and the fault. */
export function readResult(file: string, label = 'result file'): Result {
  let raw: unknown
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`${label} ${file}: cannot read a JSON result: ${(err as Error).message}`)
  }
  const parsed = ResultSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw new Error(
      `${label} ${file}: not a suite result: at ${first.path.join('.')}: ${first.message}`
    )
  }
  return parsed.data
}
