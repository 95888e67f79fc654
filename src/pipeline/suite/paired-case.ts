import * as path from 'node:path'
import { abbaOrder, type Interleave, type Side } from '../../client/interleave'
import { pairedWarmupRequests, streamLeadIn } from '../../client/plan'
import { headlineMetric, type PairedProfile } from '../../profile/traits'
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
 * so it leads in with about a second of requests; a later burst block needs none.
 */
export function blockLoad(load: Load, profile: PairedProfile, first: boolean): Load {
  const warmupRequests = first
    ? load.warmupRequests
    : profile.kind === 'burst'
      ? 0
      : streamLeadIn(profile.rate, load)
  return { ...load, runs: 1, warmupRequests }
}

/**
 * How long the two load clients get to start before their shared schedule begins: Python imports
 * GNES and opens its channel in about a second here. A request a client could not send on time
 * goes late and is counted so (it falls in the warm-up).
 */
const CLIENT_START_SECONDS = 2

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
  /** Seconds a case may spend on pairs before it stops adding them. */
  budgetSec: number
  threshold: number
}

/** Both sides' results of one case, and how its pairs were measured. */
interface PairedCaseRun {
  sides: Record<Side, CaseResult>
  sequence: Sequence
}

/**
 * Runs one case's pairs on both topologies, always stopping them.
 *
 * Interleaved by `requests` (minimal load): both sides run at once on one clock, the head's
 * requests half a period after the base's, so pair i is the i-th run of each side, taken in the
 * same seconds. A slowdown of the machine lasting longer than a request period falls on both
 * sides of the pairs it touches, instead of on whichever block it happened to meet. A request
 * of either side ends (at the last router) well before the other side's next one is due, as long
 * as the latency stays under half a period.
 *
 * Interleaved by `blocks`: the blocks of the ABBA order one after the other, the side not running
 * idle.
 *
 * With `redeploy` both are started afresh for every pair, so a difference between two deployments
 * that lasts their lifetime varies from pair to pair and the paired test sees it as spread;
 * without, each is started once per case (docs/regression.md, "Paired mode", measures both).
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
  const load =
    profile.kind === 'minimal'
      ? { ...suiteLoad, warmupRequests: pairedWarmupRequests(profile.rate, suiteLoad) }
      : suiteLoad
  const deadline = started + settings.caseTimeoutSec * 1000
  const remaining = (): number => {
    const s = Math.floor((deadline - Date.now()) / 1000)
    if (s <= 0) {
      throw new Error(
        `case ${specs.head.topology.id} exceeded case-timeout (${settings.caseTimeoutSec} s, both sides of the pair)`
      )
    }
    return s
  }
  const deps: Partial<Record<Side, Deployment>> = {}
  const stopAll = (): Promise<unknown> => Promise.all(Object.values(deps).map(d => d?.stop()))
  const runners: Partial<Record<Side, CaseRunner>> = {}
  /** Whether a side has yet to run a block on its current deployment. */
  const fresh: Record<Side, boolean> = { base: true, head: true }
  const deploy = async (pair: number): Promise<void> => {
    await stopAll()
    for (const side of SIDES) {
      const at = Date.now()
      const dir = settings.redeploy
        ? path.join(logDir, side, `pair-${pair + 1}`)
        : path.join(logDir, side)
      const { dep, run } = await startCase(engines[side], specs[side].topology, {
        logDir: dir,
        readyTimeoutMs: READY_TIMEOUT_MS
      })
      deps[side] = dep
      runners[side] = run
      fresh[side] = true
      log.info(`${side}: services ready in ${((Date.now() - at) / 1000).toFixed(1)} s`)
    }
  }
  const runs: Record<Side, RunResult[]> = { base: [], head: [] }
  const metrics: Record<Side, string[]> = { base: [], head: [] }
  const keep = (side: Side, outcome: ProfileOutcome): void => {
    metrics[side] = outcome.metrics
    for (const run of outcome.runs) runs[side].push({ ...run, index: runs[side].length })
  }

  /** Pairs `from` to `to` (exclusive), both sides at once on one clock. */
  const requestPairs = async (from: number, to: number): Promise<void> => {
    if (profile.kind !== 'minimal') throw new Error('requests interleave only at minimal load')
    // Each deployment leads in with the whole warm-up; a later stream on a kept deployment with
    // the lead-in of a new StreamCall.
    const segments = settings.redeploy
      ? Array.from({ length: to - from }, (_, k) => ({ first: from + k, n: 1 }))
      : [{ first: from, n: to - from }]
    for (const { first, n } of segments) {
      if (settings.redeploy || first === 0) await deploy(first)
      const warmupRequests = fresh.base ? load.warmupRequests : streamLeadIn(profile.rate, load)
      fresh.base = fresh.head = false
      const at = Date.now() / 1000 + CLIENT_START_SECONDS
      const offset = 0.5 / profile.rate
      log.info(
        `pair${n > 1 ? 's' : ''} ${first + 1}${n > 1 ? `–${first + n}` : ''}: base and head at once, ` +
          `the head's requests ${(offset * 1000).toFixed(0)} ms after the base's`
      )
      const outcomes = await Promise.all(
        SIDES.map((side, i) =>
          runners[side]!.profile(
            profile,
            { ...load, runs: n, warmupRequests },
            remaining(),
            sideLog(log, side),
            at + i * offset
          )
        )
      )
      SIDES.forEach((side, i) => {
        keep(side, outcomes[i])
        const slow = outcomes[i].runs.filter(
          r => !r.warmup && r.summaries.latency.p90 > offset
        ).length
        if (slow) {
          // Symmetric, so the ratio stands; what it changes is the side's absolute figures.
          log.info(
            `${side}: in ${slow} run${slow > 1 ? 's' : ''} the latency's p90 exceeded half the ` +
              `request period (${(offset * 1000).toFixed(0)} ms): requests of the two sides ` +
              `overlapped, so these figures include the other side's load`
          )
        }
      })
    }
  }

  /** Pairs `from` to `to` (exclusive) as blocks, continuing the ABBA order. */
  const blockPairs = async (from: number, to: number): Promise<void> => {
    const order = abbaOrder(to).slice(2 * from)
    for (const [k, { pair, side }] of order.entries()) {
      const first = k === 0 || order[k - 1].pair !== pair
      if ((k === 0 && from === 0) || (settings.redeploy && first)) await deploy(pair)
      log.info(`block ${2 * from + k + 1}/${2 * to}: pair ${pair + 1}, ${side}`)
      const block = blockLoad(load, profile, fresh[side])
      fresh[side] = false
      keep(side, await runners[side]!.profile(profile, block, remaining(), log))
    }
  }

  const measured = (side: Side, metric: string): number[][] =>
    runs[side].filter(r => !r.warmup).map(r => r.samples[metric] ?? [])
  const { looks } = settings
  let stop: StopReason = 'max-pairs'
  let done = 0
  try {
    for (const [k, n] of looks.entries()) {
      if (settings.interleave === 'requests' && profile.kind === 'minimal') {
        await requestPairs(done, n)
      } else {
        await blockPairs(done, n)
      }
      done = n
      if (k === looks.length - 1) break
      // The head's metrics are known once it has run.
      const gate = verdictMetric({
        headline: headlineMetric(profile),
        metrics: metrics.head,
        profile
      })
      const [a, b] = [measured('base', gate), measured('head', gate)]
      if (![...a, ...b].every(s => s.length > 0)) break
      const m = interimVerdict(gate, a, b, looks, { threshold: settings.threshold })
      const said = `${gate} ${pct(m.change)} [${pct(m.ci[0])}, ${pct(m.ci[1])}] after ${done} pairs`
      if (m.verdict !== 'inconclusive') {
        log.info(`look ${k + 1}: ${said}: ${m.verdict}`)
        stop = 'decisive'
        break
      }
      const elapsed = (Date.now() - started) / 1000
      const next = (elapsed / done) * (looks[k + 1] - done)
      const left = Math.min(settings.budgetSec, settings.caseTimeoutSec) - elapsed
      if (next > left) {
        log.info(
          `look ${k + 1}: ${said}: inconclusive, and ${looks[k + 1] - done} more pairs would take ` +
            `about ${Math.round(next)} s of the ${Math.max(0, Math.round(left))} s left: stopping`
        )
        stop = 'budget'
        break
      }
      log.info(`look ${k + 1}: ${said}: inconclusive; adding ${looks[k + 1] - done} pairs`)
    }
    const result = (side: Side): CaseResult =>
      caseResult(specs[side], deps[side]!, profileOutcome(profile, metrics[side], runs[side], load))
    return {
      sides: { base: result('base'), head: result('head') },
      sequence: { looks, pairs: done, stop, seconds: (Date.now() - started) / 1000 }
    }
  } finally {
    await stopAll()
  }
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`
