import erfc from '@stdlib/math-base-special-erfc'
import erfcinv from '@stdlib/math-base-special-erfcinv'

/** The standard normal's quantile: the z with P(Z ≤ z) = p. */
export const normalQuantile = (p: number): number => -Math.SQRT2 * erfcinv(2 * p)

/** P(Z ≤ z) for a standard normal Z. */
export const normalCdf = (z: number): number => 0.5 * erfc(-z / Math.SQRT2)
