/** A p-value to three places; below 0.001 it is only that. */
export const fmtP = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3))
