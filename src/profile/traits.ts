import type { Profile, ProfileKind } from './definition'

/**
 * What every stage asks of a load profile, in one table: a stage reads the trait it needs instead
 * of asking for the kind, so a new kind answers all of them in its row. Where a stage runs code of
 * its own per kind or per trait (the driver, the charts), its switch ends in `unanswered`, and a
 * new kind or trait value fails to compile until it answers there too.
 */
export interface ProfileTraits {
  /**
   * What a profile publishes: each metric's best run mean (the legacy burst's figure), the median
   * of its run medians (paced), or a sweep's points.
   */
  publishes: 'run-mean' | 'run-median' | 'sweep'
  /** The figure it publishes first. */
  headline: 'roundtrip' | 'latency'
  /**
   * How a run is sized, and so what entries must share to be compared: its documents (`docs`), or
   * its requests, the same for every comparable entry.
   */
  runSize: 'docs' | 'requests'
  /** Which input sets its rate, if any. */
  rate: 'minimal-rate' | 'rate' | null
  /**
   * Whether a paired run can measure it: `requests` when the two sides' requests may alternate
   * (one paced stream), `blocks` when only whole runs can take turns; null when it does not pair.
   * Paired mode takes the first kind of PROFILE_KINDS that pairs and is listed.
   */
  pairs: 'requests' | 'blocks' | null
  /**
   * How a pull request compares it: a verdict against the baseline (`path` where the case has it,
   * as requests that never queue leave it whole; else the headline), or reported without one.
   */
  compared: 'by-path' | 'by-headline' | 'reported'
  /** Which charts draw its series (render/charts.ts), and whether it gets data-rate columns. */
  chart: 'burst' | 'paced' | 'sweep'
  /** Its series' place in the README and dashboard: lower first. */
  order: number
  /** Whether it runs after every other profile on a deployment (a failed step may leave requests). */
  last: boolean
}

const ROWS = {
  minimal: {
    publishes: 'run-median',
    headline: 'latency',
    runSize: 'requests',
    rate: 'minimal-rate',
    pairs: 'requests',
    compared: 'by-path',
    chart: 'paced',
    order: 0,
    last: false
  },
  paced: {
    publishes: 'run-median',
    headline: 'latency',
    runSize: 'requests',
    rate: 'rate',
    pairs: null,
    compared: 'by-path',
    chart: 'paced',
    order: 1,
    last: false
  },
  burst: {
    publishes: 'run-mean',
    headline: 'roundtrip',
    runSize: 'docs',
    rate: null,
    pairs: 'blocks',
    compared: 'by-headline',
    chart: 'burst',
    order: 2,
    last: false
  },
  sweep: {
    publishes: 'sweep',
    headline: 'latency',
    runSize: 'requests',
    rate: null,
    pairs: null,
    compared: 'reported',
    chart: 'sweep',
    order: 3,
    last: true
  }
} as const

/** Each kind's row, as precise as it is written (a kind without a row reads as any traits). */
type Traits = {
  [K in ProfileKind]: K extends keyof typeof ROWS ? (typeof ROWS)[K] : ProfileTraits
}

/** The traits of every kind: the type checker asks here for the row of a new kind. */
export const PROFILE_TRAITS: Traits = ROWS satisfies Record<ProfileKind, ProfileTraits>

/** A profile's row, as precise as its kind is known. */
export const traitsOf = <K extends ProfileKind>(p: { kind: K }): Traits[K] => PROFILE_TRAITS[p.kind]

/** The figure a profile publishes first, and the one a pull-request verdict gates on. */
export const headlineMetric = (p: Pick<Profile, 'kind'>): string => traitsOf(p).headline

/** The profiles that publish runs (every kind but a sweep's points): what the load driver runs. */
export type RunProfile = Extract<
  Profile,
  { kind: { [K in ProfileKind]: Traits[K]['publishes'] extends 'sweep' ? never : K }[ProfileKind] }
>

/** Whether a profile publishes runs, not a sweep's points. */
export const publishesRuns = (p: Profile): p is RunProfile => traitsOf(p).publishes !== 'sweep'

/** The profiles a paired run can measure. */
export type PairedProfile = Extract<
  Profile,
  { kind: { [K in ProfileKind]: Traits[K]['pairs'] extends null ? never : K }[ProfileKind] }
>

export const isPairedKind = (k: ProfileKind): k is PairedProfile['kind'] =>
  PROFILE_TRAITS[k].pairs !== null

/** The profiles a rate schedules (their `rate` trait names its input): a stream paced open loop. */
export type PacedProfile = Extract<
  Profile,
  { kind: { [K in ProfileKind]: Traits[K]['rate'] extends null ? never : K }[ProfileKind] }
>

/** Whether a rate schedules the profile's requests, so its length follows from its requests. */
export const isPaced = (p: Profile): p is PacedProfile => traitsOf(p).rate !== null

/** The profiles whose paired requests may alternate between the sides on one clock. */
export type RequestPairedProfile = Extract<
  Profile,
  { kind: { [K in ProfileKind]: Traits[K]['pairs'] extends 'requests' ? K : never }[ProfileKind] }
>

/** Whether a paired run may interleave the profile's requests, not only whole runs. */
export const pairsRequests = (p: Profile): p is RequestPairedProfile =>
  traitsOf(p).pairs === 'requests'
