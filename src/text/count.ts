/** `1 entry`, `2 entries`: a number with its noun, for every message that counts things. */
export const count = (n: number, one: string, many = `${one}s`): string =>
  `${n} ${n === 1 ? one : many}`
