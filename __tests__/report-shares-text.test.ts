import { hopShares } from '../src/judge/hop-shares'
import { movedHopsText, sharesText } from '../src/report/shares-text'
import { re, SECONDS, SHARE } from './helpers/figures'
import { pairs, PARTS, seeded, type Slowdown } from './helpers/requests'

const METRICS = ['latency', 'path', ...Object.keys(PARTS)]

function split(seed: number, gate: string, head: { slow?: Slowdown[]; clientSeconds?: number }) {
  const p = pairs(seeded(seed), 8, 30, head)
  return hopShares(gate, METRICS, p.base, p.head, 0.05)!
}

const UNIT: Record<string, number> = { s: 1, ms: 1e-3, µs: 1e-6 }

/** Every signed time the text prints, in seconds. */
const times = (text: string): number[] =>
  [...text.matchAll(/([+−])(\d+(?:\.\d+)?) (s|ms|µs)\b/g)].map(
    ([, sign, x, unit]) => (sign === '−' ? -1 : 1) * Number(x) * UNIT[unit]
  )

describe('the words of hop shares', () => {
  const slow = [
    { part: 'r1:proc', seconds: 0.001, share: 1 },
    { part: 'r1->r2:send', seconds: -0.0003, share: 1 }
  ]
  const s = split(3, 'path', { slow })
  const text = sharesText(s)

  test('names every hop that moved with its sign, share and interval, and no cap', () => {
    expect(text).toMatch(
      re`\`r1:proc\` \(router 1's own time\) \+${SECONDS} \(\d{3,} %, interval ${SHARE} … ${SHARE}\)`
    )
    expect(text).toMatch(
      re`\`r1->r2:send\` \(router 1 → router 2\) −${SECONDS} \(−\d+ %, interval ${SHARE} … ${SHARE}\)`
    )
    expect(movedHopsText(s)).toMatch(
      re`^\`r1:proc\` .* \+${SECONDS}, \`r1->r2:send\` .* −${SECONDS}$`
    )
  })

  test('the printed contributions add up to the printed change within rounding', () => {
    // The total and its interval, then each named part, the other hops and any residual.
    const [total, , , ...contributions] = times(text)
    expect(contributions.length).toBe(s.parts.filter(p => p.moved).length + 1)
    expect(Math.abs(contributions.reduce((a, b) => a + b, 0) - total)).toBeLessThan(2e-5)
  })

  test('time no hop measures is printed as such', () => {
    const client = split(4, 'latency', { clientSeconds: 0.0006 })
    expect(sharesText(client)).toMatch(re`time no hop measures \+${SECONDS} \(`)
    expect(text).not.toContain('time no hop measures')
  })
})
