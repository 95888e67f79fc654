import { mean, std } from '../stats/sample'
import { outliers, type OutlierRule } from './outliers'
import { studentTCdf, studentTQuantile } from './student-t'

/**
 * The paired test on per-pair log ratios: the pairs an outlier rule names are set aside, and
 * Student's t is taken over the rest. Without outliers it is exactly Student's paired t-test; a
 * pair whose run figure moved with a stall or a bad placement costs one pair, not the answer.
 */

/** Student's t over the kept pairs. */
export interface PairedT {
  /** Indices (ascending) of the pairs set aside. */
  setAside: number[]
  /** Pairs kept. */
  kept: number
  /** Mean and s.d. of the kept log ratios. */
  mean: number
  sd: number
  /** mean / (sd / √kept); ±Infinity (or 0) when the kept pairs have no spread. */
  t: number
}

/**
 * `rule` names the pairs to set aside (null: none); `setAside`, when given, names them instead
 * (a case's diagnostics drop the pairs its verdict metric set aside).
 */
export function pairedT(
  diffs: readonly number[],
  rule: OutlierRule | null,
  setAside?: readonly number[]
): PairedT {
  const out = [...(setAside ?? (rule ? outliers(diffs, rule) : []))]
  const drop = new Set(out)
  const kept = diffs.filter((_, i) => !drop.has(i))
  const [m, sd] = [mean(kept), std(kept)]
  const t = sd > 0 ? m / (sd / Math.sqrt(kept.length)) : m === 0 ? 0 : Math.sign(m) * Infinity
  return { setAside: out, kept: kept.length, mean: m, sd, t }
}

/** The t that a two-sided test at nominal level `level` passes over `kept` pairs. */
export const pairedCritical = (level: number, kept: number): number =>
  studentTQuantile(1 - level / 2, kept - 1)

/** The two-sided interval of the mean log ratio at nominal level `level` (exact without spread). */
export function pairedInterval(r: PairedT, level: number): [number, number] {
  if (r.sd === 0) return [r.mean, r.mean]
  const half = (studentTQuantile(1 - level / 2, r.kept - 1) * r.sd) / Math.sqrt(r.kept)
  return [r.mean - half, r.mean + half]
}

/** The nominal two-sided p-value for no change. */
export const pairedP = (r: PairedT): number =>
  r.sd === 0 ? (r.mean === 0 ? 1 : 0) : Math.min(1, 2 * studentTCdf(-Math.abs(r.t), r.kept - 1))
