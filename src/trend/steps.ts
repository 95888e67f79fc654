import { studentTQuantile } from '../stats/student-t'
import {
  changePoints,
  forwardChange,
  OTAVA_DEFAULTS,
  type ChangePoint,
  type ChangePointOptions
} from './change-points'

/**
 * A change point read as a step of a series of published figures: where it starts, how large it
 * is with its interval, and whether the newest entry is what made it detectable.
 */
export interface Step {
  /** Index in the series (oldest first) of the first entry at the new level. */
  index: number
  /** Relative change of the mean level: +0.05 = 5 % slower. */
  change: number
  /** 95 % interval of `change` (the pooled t of the test, relative to the level before). */
  interval: [number, number]
  pValue: number
  /** Entries at the level before and after, up to the neighbouring steps. */
  before: number
  after: number
}

function stepOf(p: ChangePoint, before: number, after: number): Step {
  const df = before + after - 2
  const pooled = ((before - 1) * p.sdBefore ** 2 + (after - 1) * p.sdAfter ** 2) / Math.max(df, 1)
  const half =
    df > 0 ? studentTQuantile(0.975, df) * Math.sqrt(pooled * (1 / before + 1 / after)) : Infinity
  const rel = (d: number) => (p.meanBefore === 0 ? 0 : d / p.meanBefore)
  const diff = p.meanAfter - p.meanBefore
  return {
    index: p.index,
    change: forwardChange(p),
    interval: [rel(diff - half), rel(diff + half)],
    pValue: p.pValue,
    before,
    after
  }
}

/**
 * A step is a level that several entries hold: a change point with fewer entries than this on
 * either side (which the t-test can pass on a short, quiet series: one or two odd entries) is
 * not reported. A new level is thus reported from its third entry on.
 */
export const MIN_SIDE = 3

/** The steps of a series (oldest first), each with the entries on either side of it. */
export function stepsOf(values: readonly number[], options?: ChangePointOptions): Step[] {
  const points = changePoints(values, options)
  return points
    .map((p, i) =>
      stepOf(
        p,
        p.index - (i > 0 ? points[i - 1].index : 0),
        (i + 1 < points.length ? points[i + 1].index : values.length) - p.index
      )
    )
    .filter(s => s.before >= MIN_SIDE && s.after >= MIN_SIDE)
}

/**
 * A step already seen without the newest entries moves by an entry or two as entries arrive;
 * it is the same step, and is not announced again.
 */
const SAME_STEP = 2

const sameStep = (a: Step, b: Step): boolean =>
  Math.abs(a.index - b.index) <= SAME_STEP && Math.sign(a.change) === Math.sign(b.change)

/**
 * The steps of `values` that no earlier state of the series showed: those the entries after
 * its first `known` made detectable for the first time. A step is announced by the push that
 * first shows it, once: not again by the pushes after it, and not again when a weak step drops
 * out of the detection for a push and comes back. Only steps within the last `lookback` entries
 * are announced (older ones were, when they were new); by default Otava's window.
 */
export function newSteps(
  values: readonly number[],
  known: number,
  options: ChangePointOptions = OTAVA_DEFAULTS,
  lookback = options.windowLength
): Step[] {
  if (known >= values.length) return []
  const from = values.length - lookback
  const candidates = stepsOf(values, options).filter(s => s.index >= from)
  const earlier = new Map<number, Step[]>()
  const seenAt = (length: number): Step[] => {
    if (!earlier.has(length)) earlier.set(length, stepsOf(values.slice(0, length), options))
    return earlier.get(length)!
  }
  return candidates.filter(s => {
    for (let length = known; length > s.index; length--)
      if (seenAt(length).some(b => sameStep(b, s))) return false
    return true
  })
}
