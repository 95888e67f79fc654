import { inlineCode } from '../text/escape'
import { fmtChange, fmtInterval, fmtPlusMinus } from '../text/percent'
import { fmtDelta } from '../text/duration'
import { movedParts, type Moved } from '../judge/moved'
import type { HopShares } from '../judge/hop-shares'
import type { Verdict } from '../judge/verdict'
import { count } from '../text/count'
import { named } from './metric-words'
import { movedHopsText, sharesText } from './shares-text'

/**
 * The words of a verdict, shared by history mode and paired mode: the table cell, the headline,
 * and the line per case that says what the run could tell and which hop moved.
 */

export const VERDICT_TEXT: Record<Verdict, string> = {
  regression: '🔴 regression',
  improvement: '🟢 improvement',
  'no-change': '⚪ no change',
  inconclusive: '🟡 inconclusive'
}

/** What the words need of a compared metric, in either mode. */
export interface Judged extends Moved {
  verdict: Verdict
  change: number
  ci: [number, number] | null
  detectable: number | null
  needed: number | null
}

/** The table's verdict cell: an inconclusive one says the change it finds with 80 % power. */
export function verdictCell(m: Judged): string {
  const text = VERDICT_TEXT[m.verdict]
  if (m.verdict !== 'inconclusive' || m.detectable === null) return text
  return `${text} (${fmtPlusMinus(m.detectable)} detectable at 80 % power)`
}

/** Past this many runs a job cannot go; the estimate is then only "more". */
const MOST_RUNS = 1000

/**
 * What the answers mean, under the table: the verdict metrics this report judged by (none of
 * another kind of case is named) and the rule of each answer.
 */
export function answerLegend(metrics: readonly string[], threshold: number): string {
  const names = [...new Set(metrics)].map(m => inlineCode(m)).join(', ')
  return (
    `Each case’s verdict metric (here ${names}) decides the \`regression\` and \`verdict\` ` +
    'outputs and `fail-on-regression`. **Regression** (or improvement): the interval excludes ' +
    `zero and the change is at least ${fmtChange(threshold).slice(1)}; **no change**: the whole ` +
    `interval lies within ${fmtPlusMinus(threshold)}; **inconclusive**: neither.`
  )
}

/** The headline's answer over the cases' verdict metrics, worst first. */
export function headlineAnswer(verdicts: readonly Verdict[], threshold: number): string {
  const cases = (v: Verdict) => verdicts.filter(x => x === v).length
  const parts = [
    cases('regression') ? `🔴 regression in ${count(cases('regression'), 'case')}` : null,
    cases('inconclusive') ? `🟡 inconclusive in ${count(cases('inconclusive'), 'case')}` : null,
    cases('improvement') ? `🟢 improvement in ${count(cases('improvement'), 'case')}` : null
  ].filter(Boolean)
  if (parts.length) return parts.join(', ')
  return `⚪ no change larger than ${fmtPlusMinus(threshold)}`
}

const moves = (hops: readonly Moved[]): string =>
  hops.map(h => `${named(h.metric)} ${fmtDelta(h.delta)}`).join(', ')

/**
 * Where the change lies: a paired case's split of its verdict metric into hops when it has one,
 * else the hops whose adjusted evidence moved (history mode). Null when there is nothing to say.
 */
function whereText(metrics: readonly Judged[], shares: HopShares | null): string | null {
  if (shares) return sharesText(shares)
  const hops = movedParts(metrics)
  return hops.length ? `the hops that moved: ${moves(hops)}` : null
}

/** The hops that moved, for a case that cannot tell; null when none did. */
function seenText(metrics: readonly Judged[], shares: HopShares | null): string | null {
  if (shares) return movedHopsText(shares)
  const hops = movedParts(metrics)
  return hops.length ? moves(hops) : null
}

/**
 * One case's answer in a sentence or two: the verdict metric's change, what it means, and where it
 * lies (or, when it cannot tell, the hops that did move). `label` is escaped Markdown; `unit` is
 * what the run repeated (`pairs` or `runs a side`), `n` how many; `shares` a paired case's split.
 */
export function answerLine(
  label: string,
  metrics: readonly Judged[],
  threshold: number,
  unit: { n: number; word: 'pair' | 'run a side' },
  shares: HopShares | null = null
): string | null {
  const gate = metrics.find(m => m.gating)
  if (!gate) return null
  const head = `**${label}**: ${VERDICT_TEXT[gate.verdict]}, ${inlineCode(gate.metric)} ${fmtChange(gate.change)} (${fmtDelta(gate.delta)})`
  const interval = gate.ci ? `, interval ${fmtInterval(gate.ci)}` : ''
  switch (gate.verdict) {
    case 'regression':
    case 'improvement': {
      const where = whereText(metrics, shares)
      return `${head}${interval}${where ? `; ${where}` : ''}.`
    }
    case 'no-change':
      return `${head}${interval}: no change larger than ${fmtPlusMinus(threshold)}.`
    case 'inconclusive': {
      const units = unit.word === 'pair' ? count(unit.n, 'pair') : `${unit.n} runs a side`
      const reason = !gate.ci
        ? ': no test was possible, so only a change past the threshold could be called'
        : gate.ci[0] > 0 || gate.ci[1] < 0
          ? `: a change, but smaller than ${fmtPlusMinus(threshold)} or not, these ${units} cannot tell`
          : `: wider than ${fmtPlusMinus(threshold)}, so these ${units} cannot tell a change from none`
      const could =
        gate.detectable === null
          ? ''
          : ` They would find a change of ${fmtPlusMinus(gate.detectable)} with 80 % power` +
            (gate.needed === null
              ? '.'
              : gate.needed > MOST_RUNS
                ? `; more than ${MOST_RUNS} ${unit.word === 'pair' ? 'pairs' : 'runs a side'} would be needed to tell.`
                : `; about ${count(gate.needed, unit.word === 'pair' ? 'pair' : 'run')}${unit.word === 'pair' ? '' : ' a side'} would tell.`)
      const hops = seenText(metrics, shares)
      const seen = hops ? ` The hops did move: ${hops}.` : ''
      return `${head}${interval}${reason}.${could}${seen}`
    }
  }
}
