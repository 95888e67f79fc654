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
import { moreCanFollow, nextLook, stopOn, type LookAnswer } from '../../judge/budget'
import { interimVerdict } from '../../judge/paired'
import type { Sequence, StopReason, TimeSplit } from '../../judge/sequential'
import { verdictMetric } from '../../metrics/verdict-metric'
import type { CaseResult, Load, RunResult } from '../../result/schema'
import { timeSplitText } from '../../report/time-split-text'
import { fmtDuration, fmtElapsed, fmtMs } from '../../text/duration'
import { fmtPercent } from '../../text/percent'
import type { CaseSpec } from '../../topology/cases'
import { caseResult, READY_TIMEOUT_MS, startCase, type CaseRunner, type CaseSettings } from './case'
import { profileOutcome, type ProfileOutcome } from './profile'
import { addTime, loadTime, NO_TIME, scheduledWarmup } from './time-split'

export type { PairedProfile }

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
  threshold: number
  /** The run's cases, which share its level (`sequentialLevels`). */
  cases: number
}

/** Both sides' results of one case, and how its pairs were measured. */
export interface PairedCaseRun {
  sides: Record<Side, CaseResult>
  sequence: Sequence
}

/**
 * One case's pairs, taken look by look, so that a run can take every case's first look before it
 * spends its budget on the cases still undecided (./budget.ts). Its sides keep running after a
 * call that leaves it open (a case kept up per case goes on where it stopped) until `pause`; a
 * call that ends its pairs, or fails, stops them. A case that goes on after `pause` starts both
 * sides afresh.
 */
export interface CaseLooks {
  /** Runs the first planned look's pairs and judges them; stops both sides if the case ended. */
  first(): Promise<void>
  /**
   * Adds planned looks while the answer is inconclusive and the next look's pairs fit in
   * `budgetSec` (from this call on) and the case's timeout, at the case's pace so far; then
   * stops both sides. A case still open after it may be given more time later.
   */
  more(budgetSec: number): Promise<void>
  /** Stops both sides, so that the machine is free for something else; nothing when stopped. */
  pause(): Promise<void>
  /** Inconclusive with looks left: `more` may add pairs. */
  readonly open: boolean
  /** Pairs its looks have taken so far. */
  readonly pairs: number
  /** Seconds the next planned look's pairs would take at the case's pace so far (0 once it ran none). */
  readonly nextSec: number
  /** Both sides' results; a case still open stopped on the budget. */
  result(): PairedCaseRun
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
  /** The case's own time: its timeout and pace count only while it runs; and where it went. */
  clock: { spentMs: number; since: number | null; split: TimeSplit }
  /** How far its looks went. */
  progress: Progress
}

/** The runs of a case's looks so far, the last look taken (−1: none), and why it stopped. */
interface Progress {
  measured: Measured
  look: number
  stop: StopReason | null
}

/**
 * The deployments the sides run on (the last ones, once stopped: their nodes go into the result),
 * whether they run, and whether each has yet to run a block on its own.
 */
interface Live {
  deps: Partial<Record<Side, Deployment>>
  runners: Partial<Record<Side, CaseRunner>>
  running: boolean
  fresh: Record<Side, boolean>
}

/** Each side's runs so far, numbered in order, and the metrics its profile reported last. */
export interface Measured {
  runs: Record<Side, RunResult[]>
  metrics: Record<Side, string[]>
}

const NOTHING_MEASURED: Measured = {
  runs: { base: [], head: [] },
  metrics: { base: [], head: [] }
}

/** What one side's block, or stream of a pair, gave, and which side went first in that pair. */
export interface SideOutcome {
  side: Side
  outcome: ProfileOutcome
  lead: Side
}

/**
 * One case's pairs on both topologies, look by look.
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
 * Both sides are started at once, the start of the side that goes first in the pair asked for
 * first. With `redeploy` both are started afresh for every pair, so a difference between two
 * deployments that lasts their lifetime varies from pair to pair and the paired test sees it as
 * spread; without, each is started once per case (docs/regression.md, "Paired mode", measures
 * both).
 *
 * Adaptive length: after the pairs of each planned look, the case's verdict metric is judged at
 * the sequence's level (judge/sequential.ts); while it is inconclusive, `more` adds the pairs of
 * the next look, unless the time they would take (at this case's pace so far) passes its budget
 * or the case's timeout. The repeated intervals hold for any such stopping rule, and so for a case
 * resumed after others ran.
 *
 * Once its pairs have ended (decisive or out of looks at `first`, or after `more`), the case stops
 * both sides and logs where its time went (`Sequence.split`): starting the sides, warming up,
 * measuring and stopping them. Stopping at `pause` is the case's time too.
 */
export function pairedCase(
  engines: Record<Side, Engine>,
  specs: Record<Side, CaseSpec>,
  profile: PairedProfile,
  settings: PairedSettings,
  suiteLoad: Load,
  logDir: string,
  log: Log
): CaseLooks {
  const load = caseLoad(profile, suiteLoad, settings.sizeRuns)
  const clock = { spentMs: 0, since: null, split: NO_TIME }
  const progress: Progress = { measured: NOTHING_MEASURED, look: -1, stop: null }
  const c: PairedCase = { engines, specs, profile, settings, load, logDir, log, clock, progress }
  const live: Live = { deps: {}, runners: {}, running: false, fresh: { base: true, head: true } }
  return {
    first: async () => {
      await running(c, live, () => takeLook(c, live, 0))
      if (progress.stop !== null) await end(c, live)
    },
    more: async budgetSec => {
      await running(c, live, () => addLooks(c, live, budgetSec))
      await end(c, live)
    },
    pause: () => running(c, live, () => stopAll(c, live)),
    get open() {
      return progress.stop === null
    },
    get pairs() {
      return pairsTaken(c)
    },
    get nextSec() {
      return progress.look < 0 || progress.stop !== null ? 0 : upcoming(c).sec
    },
    result: () => {
      if (progress.look < 0) throw new Error('a case has a result once its first look ran')
      return caseRun(c, live, progress.measured, {
        pairs: pairsTaken(c),
        stop: progress.stop ?? 'budget'
      })
    }
  }
}

/** The pairs of look `k`, judged: the case stops when decisive or out of looks. */
async function takeLook(c: PairedCase, live: Live, k: number): Promise<void> {
  const { looks } = c.settings
  const from = k === 0 ? 0 : looks[k - 1]
  const p = c.progress
  p.measured = withOutcomes(p.measured, await lookPairs(c, live, from, looks[k]))
  p.look = k
  p.stop = moreCanFollow(k, looks) ? stopOn(judgeLook(c, p.measured, k)) : 'max-pairs'
}

/** `judge` on the case's clock: judging a look is part of measuring, the only other work there. */
function judgeLook(c: PairedCase, m: Measured, k: number): LookAnswer {
  const at = Date.now()
  const said = judge(c, m, k)
  spend(c, { measureSec: since(at) })
  return said
}

/** Pairs the case's looks have taken so far. */
const pairsTaken = (c: PairedCase): number =>
  c.progress.look < 0 ? 0 : c.settings.looks[c.progress.look]

/** The next planned look's added pairs, and the seconds they would take at the case's pace so far. */
function upcoming(c: PairedCase): { added: number; sec: number } {
  const pairs = pairsTaken(c)
  const added = c.settings.looks[c.progress.look + 1] - pairs
  return { added, sec: (activeSec(c) / pairs) * added }
}

/** Adds looks while the next one's pairs fit in `budgetSec` from now and the case's timeout. */
async function addLooks(c: PairedCase, live: Live, budgetSec: number): Promise<void> {
  const p = c.progress
  if (p.look < 0) throw new Error('a case adds pairs once its first look ran')
  const began = Date.now()
  while (p.stop === null) {
    const pairs = pairsTaken(c)
    const { added, sec } = upcoming(c)
    const next = nextLook(sec, activeSec(c), {
      shareSec: budgetSec - since(began),
      timeoutSec: c.settings.caseTimeoutSec
    })
    if (!next.fits) {
      c.log.info(
        `after ${pairs} pairs: ${added} more would take about ${Math.round(next.sec)} s ` +
          `of the ${Math.max(0, Math.round(next.leftSec))} s this case has left: stopping`
      )
      return
    }
    c.log.info(`after ${pairs} pairs: inconclusive; adding ${added} pairs`)
    await takeLook(c, live, p.look + 1)
  }
}

/** Both sides' results of `measured` on their last deployments, and how the pairs went. */
function caseRun(
  c: PairedCase,
  live: Live,
  measured: Measured,
  sequence: Pick<Sequence, 'pairs' | 'stop'>
): PairedCaseRun {
  const side = (s: Side): CaseResult =>
    caseResult(
      c.specs[s],
      live.deps[s]!,
      profileOutcome(c.profile, measured.metrics[s], measured.runs[s], c.load),
      c.settings.verdictMetric
    )
  return {
    sides: { base: side('base'), head: side('head') },
    sequence: {
      looks: c.settings.looks,
      ...sequence,
      seconds: activeSec(c),
      split: c.clock.split
    }
  }
}

/** Runs `work` on the case's clock; if it fails, stops both sides. */
async function running(c: PairedCase, live: Live, work: () => Promise<void>): Promise<void> {
  const at = Date.now()
  c.clock.since = at
  try {
    await work()
  } catch (e) {
    await stopAll(c, live)
    throw e
  } finally {
    c.clock.spentMs += Date.now() - at
    c.clock.since = null
  }
}

/** Seconds the case has run so far, in all its calls. */
const activeSec = (c: PairedCase): number =>
  (c.clock.spentMs + (c.clock.since === null ? 0 : Date.now() - c.clock.since)) / 1000

/** Seconds from `ms` (epoch milliseconds) to now. */
const since = (ms: number): number => (Date.now() - ms) / 1000

/** Adds `part` to where the case's time went. */
const spend = (c: PairedCase, part: Partial<TimeSplit>): void => {
  c.clock.split = addTime(c.clock.split, part)
}

/** Stops both sides on the case's clock once its pairs have ended, and says where its time went. */
async function end(c: PairedCase, live: Live): Promise<void> {
  await running(c, live, () => stopAll(c, live))
  c.log.info(
    `case ${c.specs.head.topology.id}: ${fmtDuration(activeSec(c))}: ${timeSplitText(c.clock.split)}`
  )
}

/** Pairs `from` to `to` (exclusive), interleaved as the settings and profile allow. */
const lookPairs = (c: PairedCase, live: Live, from: number, to: number): Promise<SideOutcome[]> =>
  c.settings.interleave === 'requests' && pairsRequests(c.profile)
    ? requestPairs(c, c.profile, live, from, to)
    : blockPairs(c, live, from, to)

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
  const s = Math.floor(c.settings.caseTimeoutSec - activeSec(c))
  if (s <= 0) {
    throw new Error(
      `case ${c.specs.head.topology.id} exceeded case-timeout (${c.settings.caseTimeoutSec} s, both sides of the pair)`
    )
  }
  return s
}

/** Stops both sides if they run, as the case's teardown. */
async function stopAll(c: PairedCase, live: Live): Promise<void> {
  if (!live.running) return
  live.running = false
  const at = Date.now()
  await Promise.all(Object.values(live.deps).map(d => d?.stop()))
  spend(c, { teardownSec: since(at) })
}

/** Starts one side for `pair` in its own log directory, and says when it is ready. */
async function startSide(
  c: PairedCase,
  side: Side,
  pair: number
): Promise<{ dep: Deployment; run: CaseRunner }> {
  const at = Date.now()
  // Kept per case, a side is started again only when its case resumes: from that pair on.
  const dir = c.settings.redeploy
    ? path.join(c.logDir, side, `pair-${pair + 1}`)
    : path.join(c.logDir, side, ...(pair > 0 ? [`from-pair-${pair + 1}`] : []))
  const started = await startCase(c.engines[side], c.specs[side].topology, {
    logDir: dir,
    readyTimeoutMs: READY_TIMEOUT_MS
  })
  c.log.info(`${side}: services ready in ${fmtElapsed(since(at))}`)
  return started
}

/**
 * Stops what runs and starts both sides afresh for `pair`, at once; with `redeploy`, logs per
 * pair. If a start fails, the other is let finish and stopped, so that nothing is left running
 * (a failed start removes what it made).
 */
async function deploySides(c: PairedCase, live: Live, pair: number): Promise<void> {
  await stopAll(c, live)
  const at = Date.now()
  const sides = pairSides(pair)
  // Settled, not Promise.all: a rejection must not leave the other start going on unwatched.
  const starts = await Promise.allSettled(sides.map(side => startSide(c, side, pair)))
  const up = starts.flatMap(s => (s.status === 'fulfilled' ? [s.value] : []))
  for (const s of starts) {
    if (s.status === 'rejected') {
      await Promise.all(up.map(u => u.dep.stop()))
      throw s.reason
    }
  }
  sides.forEach((side, i) => {
    live.deps[side] = up[i].dep
    live.runners[side] = up[i].run
    live.fresh[side] = true
  })
  live.running = true
  spend(c, { startSec: since(at) })
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
    if (c.settings.redeploy || !live.running) await deploySides(c, live, pair)
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
  const began = Date.now()
  const at = began / 1000 + CLIENT_START_SECONDS
  const offset = 0.5 / profile.rate
  const lead = pairLead(pair)
  const sides = pairSides(pair)
  log.info(
    `pair ${pair + 1}: base and head at once, the ${sides[1]}'s requests ` +
      `${fmtMs(offset, 0)} ms after the ${lead}'s`
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
  // The schedule starts CLIENT_START_SECONDS after `began`: the warm-up is that and its requests.
  spend(
    c,
    loadTime(
      since(began),
      scheduledWarmup(
        began,
        outcomes.flatMap(o => o.runs)
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
      `request period (${fmtMs(offset, 0)} ms): requests of the two sides ` +
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
    if (!live.running || (c.settings.redeploy && first)) await deploySides(c, live, pair)
    c.log.info(`block ${2 * from + k + 1}/${2 * to}: pair ${pair + 1}, ${side}`)
    const block = blockLoad(c.load, c.profile, live.fresh[side])
    live.fresh[side] = false
    const at = Date.now()
    const outcome = await live.runners[side]!.profile(c.profile, block, secondsLeft(c), c.log)
    // A block's schedule starts when its client is ready. A burst's warm-up stream has no schedule
    // to say its share: the whole call counts as measuring.
    const warmup = isPaced(c.profile) ? scheduledWarmup(at, outcome.runs) : null
    spend(c, loadTime(since(at), warmup))
    outcomes.push({ side, outcome, lead: pairLead(pair) })
  }
  return outcomes
}

/**
 * Judges the case's verdict metric after look `k`, and says so; `unjudged` when a run has no
 * samples of it, so that no look can decide (the case takes no more pairs).
 */
function judge(c: PairedCase, m: Measured, k: number): LookAnswer {
  // The head's metrics are known once it has run.
  const gate = verdictMetric({
    headline: headlineMetric(c.profile),
    metrics: m.metrics.head,
    profile: c.profile,
    ...(c.settings.verdictMetric && { verdictMetric: c.settings.verdictMetric })
  })
  const measured = (side: Side): number[][] =>
    m.runs[side].filter(r => !r.warmup).map(r => r.samples[gate] ?? [])
  const [a, b] = [measured('base'), measured('head')]
  if (![...a, ...b].every(s => s.length > 0)) return 'unjudged'
  const v = interimVerdict(gate, a, b, c.settings.looks, {
    threshold: c.settings.threshold,
    cases: c.settings.cases
  })
  c.log.info(
    `look ${k + 1}: ${gate} ${pct(v.change)} [${pct(v.ci[0])}, ${pct(v.ci[1])}] after ` +
      `${c.settings.looks[k]} pairs: ${v.verdict}`
  )
  return v.verdict === 'inconclusive' ? 'inconclusive' : 'decisive'
}

const pct = (x: number): string => fmtPercent(x, { sign: '+-' })
