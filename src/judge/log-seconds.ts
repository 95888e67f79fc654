/** Route timestamps have microsecond resolution; a zero is "below 1 µs", not −∞ in logs. */
const FLOOR_SECONDS = 1e-6

/** A duration on the log scale the verdicts compare, floored at the timestamps' resolution. */
export const logSeconds = (seconds: number): number => Math.log(Math.max(seconds, FLOOR_SECONDS))
