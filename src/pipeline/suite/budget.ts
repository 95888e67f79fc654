import { pairedWarmupRequests, streamLeadIn } from '../../client/plan'
import type { Load } from '../../client/load'
import { caseShare } from '../../judge/budget'
import { isPaced, type PairedProfile } from '../../profile/traits'
import { caseLoad, CLIENT_START_SECONDS, type CaseLooks, type PairedSettings } from './paired-case'

/**
 * One time budget for a whole paired run (`paired-budget-minutes`), shared by its cases, each
 * case's share by judge/budget.ts.
 *
 * The rule: every case's first look runs first, in turn, whatever it costs. Then the time left of
 * the budget goes to the cases still undecided, in rounds, each case in turn: it may spend on its
 * later looks the time left when its turn comes times the cost of its pair over the summed pair
 * costs of itself and the cases after it in the round. The undecided cases can then reach the same
 * number of pairs, the unit the planned looks count in (the intervals narrow with pairs, not with
 * seconds); a case decided at its first look leaves its time to all that are not, whichever order
 * they run in. A case that stops before its share is spent leaves the rest to the cases after it
 * in the round, and what is still left after the round to another round among the cases whose
 * next look fits in it, before or after it: no minute is left unspent while a case could use it.
 * The rounds end when one adds no pairs.
 */

/** Both sides' start as the local engine takes it: about a second a pair, the two at once. */
const START_SECONDS = 1

/**
 * What one pair of a case costs on schedule, seconds, from its profile and settings: the measured
 * run, the warm-up or lead-in of its streams, the clients' start and, per pair, the start of both
 * sides at once. Null for an unpaced profile (a burst), whose length no schedule says. A weight, not a promise: the budget's
 * stopping rule measures the case's own pace.
 */
export function pairSeconds(
  profile: PairedProfile,
  suiteLoad: Load,
  settings: Pick<PairedSettings, 'redeploy' | 'interleave' | 'sizeRuns'>
): number | null {
  if (!isPaced(profile)) return null
  const { rate } = profile
  const load = caseLoad(profile, suiteLoad, settings.sizeRuns)
  const lead = settings.redeploy ? pairedWarmupRequests(rate, load) : streamLeadIn(rate, load)
  const stream = (load.requests + lead) / rate + CLIENT_START_SECONDS
  const start = settings.redeploy ? START_SECONDS : 0
  return (settings.interleave === 'requests' ? stream : 2 * stream) + start
}

/** A case as the budget sees it: its looks and what a pair of it costs (null: unknown). */
export interface Budgeted {
  looks: Pick<CaseLooks, 'open' | 'pause' | 'pairs' | 'nextSec'>
  cost: number | null
}

/** A case's share of the budget, seconds, as its turn comes: of `leftSec`, among `cases` undecided. */
export interface Share {
  sec: number
  leftSec: number
  cases: number
}

/**
 * The rule above: `first` takes a case's first look (and what goes with it), in order; then `more`
 * spends its share on each case still open, in order. A case's sides are paused before another
 * case's step and at the end (so the last case's first look and its later looks may share a
 * deployment). `now` is the clock, in milliseconds.
 */
export async function spendBudget<C extends Budgeted>(
  cases: readonly C[],
  budgetSec: number,
  steps: { first(c: C): Promise<void>; more(c: C, share: Share): Promise<void> },
  now: () => number = Date.now
): Promise<void> {
  const started = now()
  let active: C | null = null
  const turn = async (c: C, step: () => Promise<void>): Promise<void> => {
    if (active !== null && active !== c) await active.looks.pause()
    active = c
    await step()
  }
  try {
    for (const c of cases) await turn(c, () => steps.first(c))
    const leftSec = () => budgetSec - (now() - started) / 1000
    // The first round gives every undecided case its share, even of nothing (it then says why it
    // stops); a later one only the cases whose next look fits in what is left.
    for (let round = 0; ; round++) {
      const open = cases.filter(c => c.looks.open && (round === 0 || c.looks.nextSec <= leftSec()))
      if (open.length === 0) return
      const before = open.map(c => c.looks.pairs)
      for (const [i, c] of open.entries()) {
        const left = leftSec()
        const rest = open.slice(i)
        const sec = caseShare(
          left,
          rest.map(r => r.cost)
        )
        await turn(c, () => steps.more(c, { sec, leftSec: Math.max(0, left), cases: rest.length }))
      }
      if (open.every((c, i) => c.looks.pairs === before[i])) return
    }
  } finally {
    await Promise.all(cases.map(c => c.looks.pause()))
  }
}
