/** Three runs of three requests each, all within 2 % of `v`: a quiet case's samples. */
export const runs = (v: number): number[][] => [
  [v, v * 1.01, v * 0.99],
  [v * 1.02, v, v * 0.98],
  [v * 0.99, v * 1.01, v]
]
