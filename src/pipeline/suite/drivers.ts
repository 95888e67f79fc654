import {
  AUTO_BURST_WARMUP_REQUESTS,
  burstPlan,
  pacedAutoWarmup,
  pacedPlan,
  type ProfilePlan
} from '../../client/plan'
import type { Load } from '../../client/load'
import type { Inputs } from '../../config/inputs'
import type { Profile, ProfileKind } from '../../profile/definition'
import type { PairedProfile, RunProfile } from '../../profile/traits'
import type { Topology } from '../../topology/schema'

/**
 * How the suite drives each kind of load profile, in one table: the one place where code runs per
 * kind rather than per trait. A new kind fails to compile here until its row answers.
 */

type Of<K extends ProfileKind> = Extract<Profile, { kind: K }>

/** The inputs that set a profile's rate; a case's own minimal rate stands in for none. */
export type RateInputs = Pick<Inputs, 'minimal-rate' | 'rate'>

/** How a profile that publishes runs is measured: one client plan of streams (client/plan.ts). */
interface RunDriver<P extends RunProfile> {
  /** The profile run on a case whose own minimal rate is `minimalRate`. */
  profile(inputs: RateInputs, minimalRate: number): P
  /** The warm-up requests `warmup-requests: auto` means for it. */
  autoWarmup(p: P): number
  /** Its streams, the first `warmup` requests the warm-up; `startAt` fixes a paced schedule's start. */
  plan(p: P, load: Load, warmup: number, startAt?: number): ProfilePlan
}

interface Driver<K extends ProfileKind> {
  /** Its load on a deployment, `first` when no other profile ran there before it. */
  load(load: Load, first: boolean): Load
  /** How its runs are planned; null for a sweep, whose steps search their rates (./sweep.ts). */
  runs: Of<K> extends RunProfile ? RunDriver<Of<K>> : null
  /** The profile both sides of a paired run are measured under; null where it does not pair. */
  paired: Of<K> extends PairedProfile
    ? (inputs: RateInputs, head: Topology, base: Topology) => Of<K>
    : null
}

const sameLoad = (load: Load): Load => load

export const DRIVERS: { [K in ProfileKind]: Driver<K> } = {
  minimal: {
    load: sameLoad,
    runs: {
      profile: (inputs, minimalRate) => ({
        kind: 'minimal',
        rate: inputs['minimal-rate'] ?? minimalRate
      }),
      autoWarmup: p => pacedAutoWarmup(p.rate),
      plan: (p, load, warmup, startAt) => pacedPlan(p.rate, load, warmup, startAt)
    },
    // Both sides get the same offered load: the lower of the two topologies' own minimal rates.
    paired: (inputs, head, base) => ({
      kind: 'minimal',
      rate: inputs['minimal-rate'] ?? Math.min(head.minimalRate, base.minimalRate)
    })
  },
  paced: {
    load: sameLoad,
    runs: {
      // Checked before the run: `paced` is listed only with a rate.
      profile: inputs => ({ kind: 'paced', rate: inputs.rate! }),
      autoWarmup: p => pacedAutoWarmup(p.rate),
      plan: (p, load, warmup, startAt) => pacedPlan(p.rate, load, warmup, startAt)
    },
    paired: null
  },
  burst: {
    // Its warm-up stream serves every profile after it; after another profile it needs none.
    load: (load, first) => (first ? load : { ...load, warmupRequests: 0 }),
    runs: {
      profile: () => ({ kind: 'burst' }),
      autoWarmup: () => AUTO_BURST_WARMUP_REQUESTS,
      plan: (_p, load, warmup) => burstPlan(load, warmup)
    },
    paired: () => ({ kind: 'burst' })
  },
  sweep: {
    // Each step is a new stream with a lead-in of its own.
    load: sameLoad,
    runs: null,
    paired: null
  }
}

/** The run driver of a profile's kind, typed by the profile it is given. */
const runDriver = <P extends RunProfile>(p: P): RunDriver<P> =>
  // The table pairs each kind with its own row; TypeScript cannot follow that through a union.
  DRIVERS[p.kind].runs as unknown as RunDriver<P>

/** The warm-up requests a profile sends before its measured runs. */
export const warmupRequestsOf = (profile: RunProfile, load: Load): number =>
  load.warmupRequests !== 'auto' ? load.warmupRequests : runDriver(profile).autoWarmup(profile)

/** A profile's client plan, and how each of its streams divides into warm-up and runs. */
export const profilePlan = (profile: RunProfile, load: Load, startAt?: number): ProfilePlan =>
  runDriver(profile).plan(profile, load, warmupRequestsOf(profile, load), startAt)
