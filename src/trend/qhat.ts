/**
 * The divisive step of E-divisive means (Matteson & James 2014, as Apache Otava computes it in
 * `change_point_divisive/calculator.py`): the split of a stretch of a series that makes its two
 * sides most unlike by the energy distance Q̂, with distances |x − y| (Otava's power 1).
 */

/** A split point: the first index of the right side, and its Q̂. */
export interface Candidate {
  index: number
  qhat: number
}

/**
 * `within[a][b]` = Σ |s_i − s_k| over a ≤ i < k < b, for start ≤ a ≤ b ≤ end (relative to
 * start): every Q̂ of the stretch is read from it in O(1), so a stretch costs O(n²) as in Otava.
 */
function withinSums(s: readonly number[], start: number, end: number): Float64Array[] {
  const n = end - start
  const within = Array.from({ length: n + 1 }, () => new Float64Array(n + 1))
  for (let b = 1; b < n; b++) {
    // toB = Σ |s_i − s_b| over a ≤ i < b, grown as a walks down.
    let toB = 0
    for (let a = b - 1; a >= 0; a--) {
      toB += Math.abs(s[start + a] - s[start + b])
      within[a][b + 1] = within[a][b] + toB
    }
  }
  return within
}

/** Q̂ of the split at τ of s[start:start + κ], both relative to start, from `withinSums`. */
function qhatOf(w: Float64Array[], tau: number, kappa: number): number {
  const left = tau
  const right = kappa - tau
  const cross = w[0][kappa] - w[0][tau] - w[tau][kappa]
  const a = (2 / kappa) * cross
  const b = left > 1 ? ((2 * right) / kappa / (left - 1)) * w[0][tau] : 0
  const c = right > 1 ? ((2 * left) / kappa / (right - 1)) * w[tau][kappa] : 0
  return a - b - c
}

/**
 * The split of s[start:end] that maximises Q̂(τ, κ) = Q̂(s[start:τ], s[τ:κ]) over
 * start < τ < κ ≤ end; null when the stretch has fewer than 2 points. Ties go to the smallest
 * τ, then κ, as Otava's argmax over its row-major matrix does; that matrix holds 0 where τ ≥ κ,
 * so when no Q̂ is positive the answer is the first zero it meets, with Q̂ 0.
 */
export function bestSplit(s: readonly number[], start: number, end: number): Candidate | null {
  const n = end - start
  if (n < 2) return null
  const w = withinSums(s, start, end)
  let best: Candidate | null = null
  let zeroInFirstRow = false
  for (let tau = 1; tau < n; tau++) {
    for (let kappa = tau + 1; kappa <= n; kappa++) {
      const q = qhatOf(w, tau, kappa)
      if (q > 0 && (best === null || q > best.qhat)) best = { index: start + tau, qhat: q }
      if (tau === 1 && q === 0) zeroInFirstRow = true
    }
  }
  if (best) return best
  // Row τ = start + 1 holds only real splits; the next row begins with a filled-in zero.
  return { index: zeroInFirstRow || n < 3 ? start + 1 : start + 2, qhat: 0 }
}

/**
 * The split of s[start:end] with the largest Q̂ (over every κ, as `bestSplit`) among those within
 * `reach` entries of `index`: where the evidence for a change found near `index` peaks on these
 * values. `index` itself when no split near it has a positive Q̂; ties go to the nearest, then
 * the earlier.
 */
export function peakNear(
  s: readonly number[],
  start: number,
  end: number,
  index: number,
  reach: number
): number {
  const w = withinSums(s, start, end)
  const n = end - start
  let best = { index, qhat: 0, away: Infinity }
  const [lo, hi] = [Math.max(1, index - start - reach), Math.min(n - 1, index - start + reach)]
  for (let tau = lo; tau <= hi; tau++) {
    const away = Math.abs(start + tau - index)
    for (let kappa = tau + 1; kappa <= n; kappa++) {
      const q = qhatOf(w, tau, kappa)
      if (q > best.qhat || (q === best.qhat && q > 0 && away < best.away))
        best = { index: start + tau, qhat: q, away }
    }
  }
  return best.index
}
