import normal from '@stdlib/random-base-normal'

/**
 * Series shaped like this project's histories, for the change-point detector: a level of 100
 * with normal noise of a given coefficient of variation, steps that multiply the level from an
 * index on, single-point spikes, and spells (a few entries far off, then back). Seeded, so a test or figure is the same on every run.
 */
export interface SeriesShape {
  length: number
  /** Noise s.d. relative to the level (0.03 = 3 %). */
  cv: number
  /** Each step: from this index on, the level is multiplied by 1 + size. */
  steps: { at: number; size: number }[]
  /** Indexes of single points 50 % above their level. */
  spikes?: number[]
  /** Spells: from `at`, `length` entries at `factor` × their level, then back. */
  spells?: { at: number; length: number; factor: number }[]
}

export function synthetic(shape: SeriesShape, seed: number): number[] {
  const draw = normal.factory({ seed })
  const out: number[] = []
  let level = 100
  for (let i = 0; i < shape.length; i++) {
    for (const s of shape.steps) if (s.at === i) level *= 1 + s.size
    const spike = shape.spikes?.includes(i) ? 1.5 : 1
    const spell = shape.spells?.find(s => i >= s.at && i < s.at + s.length)?.factor ?? 1
    out.push(level * spike * spell * (1 + shape.cv * draw(0, 1)))
  }
  return out
}
