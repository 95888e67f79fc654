import { mean, std } from '../stats/sample'
import { studentTQuantile } from './student-t'

/** Intervals over pairs: of a mean (Student's t), and of a ratio of two means (Fieller's). */

/** Mean and two-sided t interval at level `alpha`; a constant sample's interval is the point. */
export function meanInterval(
  xs: readonly number[],
  alpha: number
): { delta: number; ci: [number, number] } {
  const m = mean(xs)
  const half = studentTQuantile(1 - alpha / 2, xs.length - 1) * (std(xs) / Math.sqrt(xs.length))
  return { delta: m, ci: [m - half, m + half] }
}

/**
 * A ratio of means over pairs, mean(c) / mean(t), with Fieller's interval: every R for which the
 * paired t-test does not reject mean(c − R·t) = 0 at level `alpha`, exact for normal pairs however
 * noisy t is. Null when that set is unbounded (t's own interval holds zero).
 */
export function ratioInterval(
  c: readonly number[],
  t: readonly number[],
  alpha: number
): { share: number; ci: [number, number] } | null {
  const n = c.length
  const [mc, mt] = [mean(c), mean(t)]
  const cov = (x: readonly number[], mx: number, y: readonly number[], my: number): number =>
    x.reduce((s, xi, i) => s + (xi - mx) * (y[i] - my), 0) / (n - 1) / n
  const q2 = studentTQuantile(1 - alpha / 2, n - 1) ** 2
  // (mc − R·mt)² ≤ q²·var(mean(c − R·t)): a·R² − 2b·R + k ≤ 0.
  const a = mt * mt - q2 * cov(t, mt, t, mt)
  const b = mc * mt - q2 * cov(c, mc, t, mt)
  const k = mc * mc - q2 * cov(c, mc, c, mc)
  if (a <= 0) return null
  const half = Math.sqrt(Math.max(0, b * b - a * k)) / a
  return { share: mc / mt, ci: [b / a - half, b / a + half] }
}
