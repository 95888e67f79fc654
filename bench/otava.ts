/**
 * Apache Otava 0.8.0 itself on many series, for the change-point benches: one Python process
 * for all of them (its start-up costs more than a row), from scripts/otava-venv.sh's venv
 * (OTAVA_PYTHON to override). Each change point with the level's relative change at it.
 */
import { execFileSync } from 'node:child_process'
import * as path from 'node:path'
import type { ChangePointOptions } from '../src/trend/change-points'
import type { Found } from './change-point-score'

const root = path.join(__dirname, '..')

let python: string | null = null

export function otava(series: number[][], options: ChangePointOptions): Found[][] {
  python ??=
    process.env.OTAVA_PYTHON ??
    execFileSync('bash', [path.join(root, 'scripts', 'otava-venv.sh')], {
      encoding: 'utf8'
    }).trim()
  const out = execFileSync(
    python,
    [path.join(root, '__tests__', 'fixtures', 'otava', 'reference.py')],
    {
      input: JSON.stringify({ options, series }),
      encoding: 'utf8',
      maxBuffer: 1 << 28
    }
  )
  type Point = { index: number; meanBefore: number; meanAfter: number }
  return (JSON.parse(out) as Point[][]).map(ps =>
    ps.map(p => ({
      index: p.index,
      change: p.meanBefore === 0 ? 0 : p.meanAfter / p.meanBefore - 1
    }))
  )
}
