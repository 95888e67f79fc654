import erfcinv from '@stdlib/math-base-special-erfcinv'

/** The standard normal's quantile: the z with P(Z ≤ z) = p. */
export const normalQuantile = (p: number): number => -Math.SQRT2 * erfcinv(2 * p)
