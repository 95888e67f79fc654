/** A memory figure in MiB (2^20 bytes), to one decimal: `42.5 MiB`. */
export const fmtMiB = (mib: number): string => `${mib.toFixed(1)} MiB`
