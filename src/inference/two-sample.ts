/**
 * The one shape of the two-sample tests a caller chooses between by value (Student's t on the
 * means, `STUDENT_T`; the rank-sum test on the medians, `RANK_SUM`): what it says of two samples,
 * and the shift between them.
 */

/** A shift of one sample from another, with its two-sided interval. */
export interface Shift {
  estimate: number
  interval: [number, number]
}

/** Two samples compared: the two-sided p of no difference, and the level (location) of each. */
export interface Compared {
  p: number
  levels: [number, number]
}

export interface TwoSampleTest {
  /** Its name, as the benches print it. */
  readonly name: string
  compare(a: readonly number[], b: readonly number[]): Compared
  /** The shift of `b` from `a` with its two-sided `level` (0.95) interval. */
  shift(a: readonly number[], b: readonly number[], level?: number): Shift
}
