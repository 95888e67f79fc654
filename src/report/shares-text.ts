import type { Contribution, HopShares } from '../judge/hop-shares'
import { fmtDelta } from '../text/duration'
import { fmtPercent } from '../text/percent'
import { inlineCode } from '../text/escape'
import { named } from './metric-words'

/**
 * The words of a verdict metric's change split into its hops (src/judge/hop-shares.ts): signed
 * contributions in time and as shares, each with its interval, and what no hop measures. The
 * printed parts, the other hops and the residual add up to the explained change.
 */

/** Below this a residual is rounding, not time: half the resolution the reports print. */
const NEGLIGIBLE_SECONDS = 5e-7

const pct = (x: number): string => fmtPercent(x, { decimals: 'round', sign: '−', spaced: true })

const timeInterval = (ci: readonly [number, number]): string =>
  `${fmtDelta(ci[0])} … ${fmtDelta(ci[1])}`

function contributionText(label: string, c: Contribution): string {
  const share =
    c.share === null || c.shareCi === null
      ? `interval ${timeInterval(c.ci)}`
      : `${pct(c.share)}, interval ${pct(c.shareCi[0])} … ${pct(c.shareCi[1])}`
  return `${label} ${fmtDelta(c.delta)} (${share})`
}

/** The parts that moved, the largest first. */
const movedParts = (s: HopShares): Contribution[] =>
  s.parts.filter(p => p.moved).sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))

/** The hops that moved in a few words, for a case that could not tell: null when none did. */
export function movedHopsText(s: HopShares): string | null {
  const moved = movedParts(s)
  return moved.length ? moved.map(p => `${named(p.metric)} ${fmtDelta(p.delta)}`).join(', ') : null
}

/** The whole split: the explained change, then every part that moved, the rest and the residual. */
export function sharesText(s: HopShares): string {
  const moved = movedParts(s)
  const rest = s.parts.filter(p => !p.moved)
  const restDelta = rest.reduce((a, p) => a + p.delta, 0)
  const [lo, hi] = s.band.map(q => Math.round(q * 100))
  const items = [
    ...moved.map(p => contributionText(named(p.metric), p)),
    rest.length ? `${moved.length ? 'the other hops' : 'the hops'} ${fmtDelta(restDelta)}` : null,
    Math.abs(s.residual.delta) >= NEGLIGIBLE_SECONDS
      ? contributionText('time no hop measures', s.residual)
      : null
  ].filter((x): x is string => x !== null)
  const none = moved.length ? '' : ' no single hop moved clearly;'
  return (
    `over each run’s requests between the ${lo}th and ${hi}th percentile of ${inlineCode(s.metric)}, ` +
    `it moved ${fmtDelta(s.total.delta)} (interval ${timeInterval(s.total.ci)}):${none} ${items.join(', ')}`
  )
}
