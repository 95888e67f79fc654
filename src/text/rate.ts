/**
 * A rate (requests or megabytes per second) as a figure: to `decimals`, or where left out as short
 * as it is exact to six significant digits, as a rate someone asked for is named (0.5, 5, 12.5),
 * without float noise.
 */
export const fmtRate = (rate: number, decimals?: number): string =>
  decimals === undefined ? String(Number(rate.toPrecision(6))) : rate.toFixed(decimals)
