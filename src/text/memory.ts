/** A memory figure in MiB (2^20 bytes), to one decimal, as a table's cell gives it: `42.5`. */
export const mibValue = (mib: number): string => mib.toFixed(1)

/** A memory figure with its unit: `42.5 MiB`. */
export const fmtMiB = (mib: number): string => `${mibValue(mib)} MiB`
