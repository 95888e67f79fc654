/**
 * Names in waves: each wave holds every name whose prerequisites are all in earlier waves, in the
 * order given. `unordered` is what a cycle kept out of every wave (empty when there is none).
 */
export function inWaves(items: readonly { name: string; after: readonly string[] }[]): {
  waves: string[][]
  unordered: string[]
} {
  const placed = new Set<string>()
  const waves: string[][] = []
  let rest = [...items]
  for (;;) {
    const wave = rest.filter(i => i.after.every(p => placed.has(p))).map(i => i.name)
    if (wave.length === 0) return { waves, unordered: rest.map(i => i.name) }
    wave.forEach(n => placed.add(n))
    waves.push(wave)
    rest = rest.filter(i => !placed.has(i.name))
  }
}
