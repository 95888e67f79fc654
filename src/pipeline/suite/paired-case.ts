import * as path from 'node:path'
import { abbaOrder, pairLead, pairSides, type Interleave, type Side } from '../../client/interleave'
import { pairedRunRequests, pairedWarmupRequests, streamLeadIn } from '../../client/plan'
import {
  headlineMetric,
  isPaced,
  pairsRequests,
  type PairedProfile,
  type RequestPairedProfile
} from '../../profile/traits'
import type { Deployment, Engine } from '../../engine/types'
import type { Log } from '../../log'
import { interimVerdict } from '../../judge/paired'
import type { Sequence, StopReason } from '../../judge/sequential'
import { verdictMetric } from '../../metrics/verdict-metric'
import type { CaseResult, Load, RunResult } from '../../result/schema'
import type { CaseSpec } from '../../topology/cases'
import { caseResult, READY_TIMEOUT_MS, startCase, type CaseRunner, type CaseSettings } from './case'
import { profileOutcome, type ProfileOutcome } from './profile'

export type { PairedProfile }

export const SIDES: readonly Side[] = ['base', 'head']

/**
 * One block is one measured run. The first block on a deployment leads in with the whole warm-up;
 * a later paced block is a new StreamCall, whose first requests wait for the routers to reconnect,
 * so it leads in with about a second of requests; a later unpaced block (a burst) needs none.
 */
export function blockLoad(load: Load, profile: PairedProfile, first: boolean): Load {
  const warmupRequests = first
    ? load.warmupRequests
    : isPaced(profile)
      ? streamLeadIn(profile.rate, load)
      : 0
  return { ...load, runs: 1, warmupRequests }
}

/**
 * How long the two load clients get to start before their shared schedule begins: Python imports
 * GNES and opens its channel in about a second here. A request a client could not send on time
 * goes late and is counted so (it falls in the warm-up).
 */
export const CLIENT_START_SECONDS = 2

/** A log whose lines name the side, for the two clients that run at once. */
const sideLog = (log: Log, side: Side): Log => ({
  ...log,
  info: m => log.info(`${side}: ${m}`),
  warn: m => log.warn(`${side}: ${m}`)
})

export interface PairedSettings extends CaseSettings {
  /** Both sides afresh for every pair, rather than once per case. */
  redeploy: boolean
  interleave: Interleave
  /** The planned looks, in pairs: the first is `runs`, the last `max-pairs`. */
  looks: number[]
  /** `requests: auto`: each case's runs sized from its rate (`pairedRunRequests`). */
  sizeRuns: boolean
  /** Seconds this case may spend on pairs: its share of the run's budget (./budget.ts). */
  budgetSec: number
  threshold: number
}

/** Both sides' results of one case, and how its pairs were measured. */
interface PairedCaseRun {
  sides: Record<Side, CaseResult>
  sequence: Sequence
}

/** What every step of one case reads: its two sides, its settings and load, and its clock. */
interface PairedCase {
  engines: Record<Side, Engine>
  specs: Record<Side, CaseSpec>
  profile: PairedProfile
  settings: PairedSettings
  /** The suite's load, with a paired run's warm-up at minimal load. */
  load: Load
  logDir: string
  log: Log
  /** When the case began (ms since the epoch): its timeout and budget count from here. */
  started: number
}

/** The deployments the sides run on now, and whether each has yet to run a block on its own. */
interface Live {
  deps: Partial<Record<Side, Deployment>>
  runners: Partial<Record<Side, CaseRunner>>
  fresh: Record<Side, boolean>
}

/** Each side's runs so far, numbered in order, and the metrics its profile reported last. */
export interface Measured {
  runs: Record<Side, RunResult[]>
  metrics: Record<Side, string[]>
}

/** What one side's block, or stream of a pair, gave, and which side went first in that pair. */
export interface SideOutcome {
  side: Side
  outcome: ProfileOutcome
  lead: Side
}

/**
 * Runs one case's pairs on both topologies, always stopping them.
 *
 * Interleaved by `requests` (a kind whose `pairs` trait allows it: minimal load): both sides run at once on one clock, one side's
 * requests half a period after the other's, so pair i is the i-th run of each side, taken in the
 * same seconds; each pair is a stream of its own, and the side ahead alternates (`pairLead`). A slowdown of the machine lasting longer than a request period falls on both
 * sides of the pairs it touches, instead of on whichever block it happened to meet. A request
 * of either side ends (at the last router) well before the other side's next one is due, as long
 * as the latency stays under half a period.
 *
 * Interleaved by `blocks`: the blocks of the ABBA order one after the other, the side not running
 * idle.
 *
 * With `redeploy` both are started afresh for every pair, the side that goes first in the pair
 * first, so a difference between two deployments that lasts their lifetime varies from pair to
 * pair and the paired test sees it as spread; without, each is started once per case, the base
 * first, an order no later pair can alternate (docs/regression.md, "Paired mode", measures both).
 *
 * Adaptive length: after the pairs of each planned look, the case's verdict metric is judged at
 * the sequence's level (judge/sequential.ts); while it is inconclusive, the pairs of the next
 * look are added, unless the time they would take (at this case's pace so far) passes the budget
 * or the case's timeout.
 */
export async function runPairedCase(
  engines: Record<Side, Engine>,
  specs: Record<Side, CaseSpec>,
  profile: PairedProfile,
  settings: PairedSettings,
  suiteLoad: Load,
  logDir: string,
  log: Log
): Promise<PairedCaseRun> {
  const started = Date.now()
  const load = caseLoad(profile, suiteLoad, settings.sizeRuns)
  const c: PairedCase = { engines, specs, profile, settings, load, logDir, log, started }
  const live: Live = { deps: {}, runners: {}, fresh: { base: true, head: true } }
  try {
    const { measured, pairs, stop } = await measureLooks(c, live)
    const result = (side: Side): CaseResult =>
      caseResult(
        specs[side],
        live.deps[side]!,
        profileOutcome(profile, measured.metrics[side], measured.runs[side], load)
      )
    return {
      sides: { base: result('base'), head: result('head') },
      sequence: { looks: settings.looks, pairs, stop, seconds: (Date.now() - started) / 1000 }
    }
  } finally {
    await stopAll(live)
  }
}

/** A case's load: when paced, a paired run's warm-up and, with `sizeRuns`, run length. */
export const caseLoad = (profile: PairedProfile, suiteLoad: Load, sizeRuns: boolean): Load =>
  isPaced(profile)
    ? {
        ...suiteLoad,
        requests: sizeRuns ? pairedRunRequests(profile.rate) : suiteLoad.requests,
        warmupRequests: pairedWarmupRequests(profile.rate, suiteLoad)
      }
    : suiteLoad

/** Whole seconds left of the case's timeout; throws once none are. */
function secondsLeft(c: PairedCase): number {
  const deadline = c.started + c.settings.caseTimeoutSec * 1000
  const s = Math.floor((deadline - Date.now()) / 1000)
  if (s <= 0) {
    throw new Error(
      `case ${c.specs.head.topology.id} exceeded case-timeout (${c.settings.caseTimeoutSec} s, both sides of the pair)`
    )
  }
  return s
}

const stopAll = (live: Live): Promise<unknown> =>
  Promise.all(Object.values(live.deps).map(d => d?.stop()))

/**
 * Stops what runs and starts both sides afresh for `pair`, the side that goes first in it first;
 * with `redeploy`, logs per pair.
 */
async function deploySides(c: PairedCase, live: Live, pair: number): Promise<void> {
  await stopAll(live)
  for (const side of pairSides(pair)) {
    const at = Date.now()
    const dir = c.settings.redeploy
      ? path.join(c.logDir, side, `pair-${pair + 1}`)
      : path.join(c.logDir, side)
    const { dep, run } = await startCase(c.engines[side], c.specs[side].topology, {
      logDir: dir,
      readyTimeoutMs: READY_TIMEOUT_MS
    })
    live.deps[side] = dep
    live.runners[side] = run
    live.fresh[side] = true
    c.log.info(`${side}: services ready in ${((Date.now() - at) / 1000).toFixed(1)} s`)
  }
}

/**
 * The looks' pairs, judged after every look but the last: what both sides measured, how many
 * pairs, and why the case stopped.
 */
async function measureLooks(
  c: PairedCase,
  live: Live
): Promise<{ measured: Measured; pairs: number; stop: StopReason }> {
  const { looks } = c.settings
  let measured: Measured = { runs: { base: [], head: [] }, metrics: { base: [], head: [] } }
  let done = 0
  for (const [k, n] of looks.entries()) {
    const outcomes =
      c.settings.interleave === 'requests' && pairsRequests(c.profile)
        ? await requestPairs(c, c.profile, live, done, n)
        : await blockPairs(c, live, done, n)
    measured = withOutcomes(measured, outcomes)
    done = n
    if (k === looks.length - 1) break
    const stop = lookStop(c, measured, k, done)
    if (stop) return { measured, pairs: done, stop }
  }
  return { measured, pairs: done, stop: 'max-pairs' }
}

/** `m` and then `outcomes`, in order: runs numbered on, each side's metrics its latest. */
export function withOutcomes(m: Measured, outcomes: readonly SideOutcome[]): Measured {
  const runs: Measured['runs'] = { base: [...m.runs.base], head: [...m.runs.head] }
  const metrics: Measured['metrics'] = { ...m.metrics }
  for (const { side, outcome, lead } of outcomes) {
    metrics[side] = outcome.metrics
    for (const run of outcome.runs) {
      runs[side].push({ ...run, index: runs[side].length, pairLead: lead })
    }
  }
  return { runs, metrics }
}

/**
 * Pairs `from` to `to` (exclusive), both sides at once on one clock, each pair a stream of its own
 * so that the side ahead can alternate. The first stream on a deployment leads in with the whole
 * warm-up, a later one on a kept deployment with the lead-in of a new StreamCall.
 */
async function requestPairs(
  c: PairedCase,
  profile: RequestPairedProfile,
  live: Live,
  from: number,
  to: number
): Promise<SideOutcome[]> {
  const outcomes: SideOutcome[] = []
  for (let pair = from; pair < to; pair++) {
    if (c.settings.redeploy || pair === 0) await deploySides(c, live, pair)
    outcomes.push(...(await requestPair(c, profile, live, pair)))
  }
  return outcomes
}

/** One pair as one stream of each side on one clock, the side that goes first half a period ahead. */
async function requestPair(
  c: PairedCase,
  profile: RequestPairedProfile,
  live: Live,
  pair: number
): Promise<SideOutcome[]> {
  const { load, log } = c
  const warmupRequests = live.fresh.base ? load.warmupRequests : streamLeadIn(profile.rate, load)
  live.fresh.base = live.fresh.head = false
  const at = Date.now() / 1000 + CLIENT_START_SECONDS
  const offset = 0.5 / profile.rate
  const lead = pairLead(pair)
  const sides = pairSides(pair)
  log.info(
    `pair ${pair + 1}: base and head at once, the ${sides[1]}'s requests ` +
      `${(offset * 1000).toFixed(0)} ms after the ${lead}'s`
  )
  const outcomes = await Promise.all(
    sides.map((side, i) =>
      live.runners[side]!.profile(
        profile,
        { ...load, runs: 1, warmupRequests },
        secondsLeft(c),
        sideLog(log, side),
        at + i * offset
      )
    )
  )
  sides.forEach((side, i) => noteOverlap(log, side, outcomes[i], offset))
  return sides.map((side, i) => ({ side, outcome: outcomes[i], lead }))
}

/** Says which of a side's runs had a p90 latency over `offset`, the gap to the other side's requests. */
function noteOverlap(log: Log, side: Side, outcome: ProfileOutcome, offset: number): void {
  const slow = outcome.runs.filter(r => !r.warmup && r.summaries.latency.p90 > offset).length
  if (!slow) return
  // Symmetric, so the ratio stands; what it changes is the side's absolute figures.
  log.info(
    `${side}: in ${slow} run${slow > 1 ? 's' : ''} the latency's p90 exceeded half the ` +
      `request period (${(offset * 1000).toFixed(0)} ms): requests of the two sides ` +
      `overlapped, so these figures include the other side's load`
  )
}

/** Pairs `from` to `to` (exclusive) as blocks, continuing the ABBA order. */
async function blockPairs(
  c: PairedCase,
  live: Live,
  from: number,
  to: number
): Promise<SideOutcome[]> {
  const order = abbaOrder(to).slice(2 * from)
  const outcomes: SideOutcome[] = []
  for (const [k, { pair, side }] of order.entries()) {
    const first = k === 0 || order[k - 1].pair !== pair
    if ((k === 0 && from === 0) || (c.settings.redeploy && first)) await deploySides(c, live, pair)
    c.log.info(`block ${2 * from + k + 1}/${2 * to}: pair ${pair + 1}, ${side}`)
    const block = blockLoad(c.load, c.profile, live.fresh[side])
    live.fresh[side] = false
    outcomes.push({
      side,
      outcome: await live.runners[side]!.profile(c.profile, block, secondsLeft(c), c.log),
      lead: pairLead(pair)
    })
  }
  return outcomes
}

/**
 * Judges the case's verdict metric after look `k` (`done` pairs): why the case stops there, or
 * null to add the next look's pairs.
 */
function lookStop(c: PairedCase, m: Measured, k: number, done: number): StopReason | null {
  const { looks } = c.settings
  // The head's metrics are known once it has run.
  const gate = verdictMetric({
    headline: headlineMetric(c.profile),
    metrics: m.metrics.head,
    profile: c.profile
  })
  const measured = (side: Side): number[][] =>
    m.runs[side].filter(r => !r.warmup).map(r => r.samples[gate] ?? [])
  const [a, b] = [measured('base'), measured('head')]
  if (![...a, ...b].every(s => s.length > 0)) return 'max-pairs'
  const v = interimVerdict(gate, a, b, looks, { threshold: c.settings.threshold })
  const said = `${gate} ${pct(v.change)} [${pct(v.ci[0])}, ${pct(v.ci[1])}] after ${done} pairs`
  if (v.verdict !== 'inconclusive') {
    c.log.info(`look ${k + 1}: ${said}: ${v.verdict}`)
    return 'decisive'
  }
  const elapsed = (Date.now() - c.started) / 1000
  const next = (elapsed / done) * (looks[k + 1] - done)
  const left = Math.min(c.settings.budgetSec, c.settings.caseTimeoutSec) - elapsed
  if (next > left) {
    c.log.info(
      `look ${k + 1}: ${said}: inconclusive, and ${looks[k + 1] - done} more pairs would take ` +
        `about ${Math.round(next)} s of the ${Math.max(0, Math.round(left))} s left: stopping`
    )
    return 'budget'
  }
  c.log.info(`look ${k + 1}: ${said}: inconclusive; adding ${looks[k + 1] - done} pairs`)
  return null
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`
