import { inlineCode } from '../text/escape'
import { fmtChange, fmtDelta, fmtInterval, fmtPlusMinus } from './format'
import { explain, type Moved } from '../judge/moved'
import type { Verdict } from '../judge/verdict'
import { count } from '../text/count'

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
  change: number
  ci: [number, number] | null
  detectable: number | null
  needed: number | null
}

/**
 * The table's verdict cell: an inconclusive one says what it could have detected (`powered`: the
 * change found with 80 % power, as a paired run states it; else about half the interval).
 */
export function verdictCell(m: Judged, powered = false): string {
  const text = VERDICT_TEXT[m.verdict]
  if (m.verdict !== 'inconclusive' || m.detectable === null) return text
  return `${text} (${fmtPlusMinus(m.detectable)} detectable${powered ? ' at 80 % power' : ''})`
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

/** A metric key in words: `r2:proc` is router 2's own time, `c->f:send` the client's transfer. */
function metricWords(metric: string): string | null {
  const proc = /^r(\d+):proc$/.exec(metric)
  if (proc) return `router ${proc[1]}'s own time`
  const hop = /^(c|f|r\d+)->(f|r\d+):send$/.exec(metric)
  if (!hop) return null
  const end = (e: string): string =>
    e === 'c' ? 'client' : e === 'f' ? 'frontend' : `router ${e.slice(1)}`
  return `${end(hop[1])} → ${end(hop[2])}`
}

const named = (metric: string): string => {
  const words = metricWords(metric)
  return words ? `${inlineCode(metric)} (${words})` : inlineCode(metric)
}

const moves = (hops: readonly Moved[]): string =>
  hops.map(h => `${named(h.metric)} ${fmtDelta(h.delta)}`).join(', ')

/**
 * One case's answer in a sentence or two: the verdict metric's change, what it means, and the
 * hops that explain it (or, when it cannot tell, the hops that did move). `label` is escaped
 * Markdown; `unit` is what the run repeated (`pairs` or `runs a side`), `n` how many.
 */
export function answerLine(
  label: string,
  metrics: readonly Judged[],
  threshold: number,
  unit: { n: number; word: 'pair' | 'run a side' }
): string | null {
  const gate = metrics.find(m => m.gating)
  if (!gate) return null
  const head = `**${label}**: ${VERDICT_TEXT[gate.verdict]}, ${inlineCode(gate.metric)} ${fmtChange(gate.change)} (${fmtDelta(gate.delta)})`
  const interval = gate.ci ? `, interval ${fmtInterval(gate.ci)}` : ''
  const why = explain(metrics)
  switch (gate.verdict) {
    case 'regression':
    case 'improvement': {
      if (!why) return `${head}${interval}.`
      const share = why.share === null ? null : Math.round(why.share * 100)
      if (share !== null && share >= 50) {
        return `${head}${interval}; ${moves(why.hops)} explain${why.hops.length === 1 ? 's' : ''} ${Math.min(share, 100)} % of it.`
      }
      return `${head}${interval}; the hops that moved (${moves(why.hops)}) explain ${share === null || share < 0 ? 'none' : `${share} %`} of it.`
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
          : (unit.word === 'pair'
              ? ` They would find a change of ${fmtPlusMinus(gate.detectable)} with 80 % power`
              : ` They could have seen a change of about ${fmtPlusMinus(gate.detectable)}`) +
            (gate.needed === null
              ? '.'
              : gate.needed > MOST_RUNS
                ? `; more than ${MOST_RUNS} ${unit.word === 'pair' ? 'pairs' : 'runs a side'} would be needed to tell.`
                : `; about ${count(gate.needed, unit.word === 'pair' ? 'pair' : 'run')}${unit.word === 'pair' ? '' : ' a side'} would tell.`)
      const seen = why ? ` The hops did move: ${moves(why.hops)}.` : ''
      return `${head}${interval}${reason}.${could}${seen}`
    }
  }
}
