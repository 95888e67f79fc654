import type { SeriesShape } from './synthetic-series'

/**
 * The change-point bench's count: which change points find a true step, and the rates with their
 * standard errors over the series (a series is the unit: its steps and points are not
 * independent of each other).
 */

/** A change point as the bench scores it: where, and the level's relative change there. */
export interface Found {
  index: number
  change: number
}

/** A change point finds a step only within this many entries of it, spells not counted. */
export const TOLERANCE = 3
/** …and only moving the level the step's way, by between 1 / FACTOR and FACTOR times the step. */
export const FACTOR = 2

/** One series' score. */
interface SeriesScore {
  steps: number
  found: number
  false: number
  entries: number
  error: number
}

/**
 * Entries from a point to a step, not counting a spell's entries between them: a spell is no
 * level, so a point at either end of a spell just before a step is at the step.
 */
function distance(shape: SeriesShape, i: number, at: number): number {
  const [lo, hi] = [Math.min(i, at), Math.max(i, at)]
  let spelled = 0
  for (const sp of shape.spells ?? [])
    spelled += Math.max(0, Math.min(hi, sp.at + sp.length) - Math.max(lo, sp.at))
  return hi - lo - spelled
}

/** Whether a reported change tells the step: its direction, and its size within FACTOR. */
export function tellsStep(change: number, size: number): boolean {
  const ratio = change / size
  return ratio >= 1 / FACTOR && ratio <= FACTOR
}

/**
 * The change point of `found` that finds `step`: the nearest within TOLERANCE that tells it
 * (the first of equals); undefined when none does.
 */
export function finder(
  shape: SeriesShape,
  found: readonly Found[],
  step: SeriesShape['steps'][number]
): Found | undefined {
  const away = (p: Found) => distance(shape, p.index, step.at)
  return found
    .filter(p => away(p) <= TOLERANCE && tellsStep(p.change, step.size))
    .sort((a, b) => away(a) - away(b))[0]
}

function scoreSeries(shape: SeriesShape, found: readonly Found[]): SeriesScore {
  const unmatched = new Set(found)
  const s: SeriesScore = { steps: 0, found: 0, false: 0, entries: shape.length, error: 0 }
  for (const step of shape.steps) {
    s.steps++
    const near = finder(shape, [...unmatched], step)
    if (near === undefined) continue
    s.found++
    s.error += distance(shape, near.index, step.at)
    unmatched.delete(near)
  }
  s.false = unmatched.size
  return s
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0)

/**
 * Σy / Σx over the series with its standard error (the ratio estimator's, over clusters):
 * √(n / (n − 1) · Σ(y − r·x)²) / Σx.
 */
function ratio(y: readonly number[], x: readonly number[]): { r: number; se: number } {
  const [sy, sx, n] = [sum(y), sum(x), y.length]
  if (sx === 0) return { r: NaN, se: NaN }
  const r = sy / sx
  const ss = sum(y.map((v, i) => (v - r * x[i]) ** 2))
  return { r, se: n > 1 ? Math.sqrt((n / (n - 1)) * ss) / sx : NaN }
}

/** The scores of a detector over some series, in the same order for every detector. */
export class Tally {
  constructor(readonly series: readonly SeriesScore[]) {}

  plus(other: Tally): Tally {
    return new Tally([...this.series, ...other.series])
  }

  private of(f: keyof SeriesScore): number[] {
    return this.series.map(s => s[f])
  }

  /** Steps found (share), false points per 100 entries, position error of the found. */
  rates() {
    return {
      found: ratio(this.of('found'), this.of('steps')),
      false: ratio(
        this.of('false').map(v => 100 * v),
        this.of('entries')
      ),
      error: sum(this.of('error')) / sum(this.of('found')),
      steps: sum(this.of('steps')),
      series: this.series.length
    }
  }

  line(): string {
    const r = this.rates()
    const found = r.steps ? `${(100 * r.found.r).toFixed(0).padStart(3)} %` : '   –'
    return `${found}  ${r.false.r.toFixed(2).padStart(5)}  ${r.found.r ? r.error.toFixed(2) : '–'}`
  }

  summary(): string {
    const r = this.rates()
    return (
      `${(100 * r.found.r).toFixed(1)} % ± ${(100 * r.found.se).toFixed(1)} of ${r.steps} steps, ` +
      `${r.false.r.toFixed(3)} ± ${r.false.se.toFixed(3)} false per 100, error ${r.error.toFixed(2)} ` +
      `(${r.series} series)`
    )
  }

  /** This detector less `other` on the same series, with the paired standard errors. */
  difference(other: Tally): string {
    const d = (f: 'found' | 'false') => this.of(f).map((v, i) => v - other.series[i][f])
    const found = ratio(d('found'), this.of('steps'))
    const fls = ratio(
      d('false').map(v => 100 * v),
      this.of('entries')
    )
    return (
      `found ${(100 * found.r).toFixed(1)} ± ${(100 * found.se).toFixed(1)} points, ` +
      `false ${fls.r.toFixed(3)} ± ${fls.se.toFixed(3)} per 100 entries`
    )
  }
}

export function tally(shape: SeriesShape, found: readonly (readonly Found[])[]): Tally {
  return new Tally(found.map(f => scoreSeries(shape, f)))
}
