/**
 * Holm's step-down adjustment (Holm, "A Simple Sequentially Rejective Multiple Test Procedure",
 * 1979): a family of p-values adjusted so that rejecting every adjusted p below α keeps the
 * chance of any false rejection at most α, whatever their dependence.
 */

/** Holm's adjusted p-values, in input order: a null (no test possible) stays null, and counts not. */
export function holmAdjusted(ps: readonly (number | null)[]): (number | null)[] {
  const tested = ps
    .map((p, i) => ({ p, i }))
    .filter((x): x is { p: number; i: number } => x.p !== null)
    .sort((a, b) => a.p - b.p)
  const m = tested.length
  const out: (number | null)[] = ps.map(() => null)
  let running = 0
  tested.forEach(({ p, i }, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p))
    out[i] = running
  })
  return out
}
