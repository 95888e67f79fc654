/** Samples are stored at microsecond resolution: finer digits are clock noise and cost bytes. */
export const roundMicros = (seconds: number): number => Math.round(seconds * 1e6) / 1e6
