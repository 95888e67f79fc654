/** Spells (src/trend/spells.ts): a few entries far off the levels on both sides, then back. */
import * as path from 'node:path'
import { synthetic } from '../bench/synthetic-series'
import { importLegacy } from '../src/history/legacy'
import { spellEntries } from '../src/trend/spells'

const flagged = (values: number[], maxSpell = 5): number[] =>
  spellEntries(values, maxSpell).flatMap((f, i) => (f ? [i] : []))

test("case 1's imported history: its lone 2.5 s entry and its four at ~3.3 s", () => {
  const entries = importLegacy(path.join(__dirname, 'fixtures', 'legacy'))
  const values = entries.filter(e => e.caseId === '1').map(e => e.best.roundtrip)
  const far = values.flatMap((v, i) => (v > 1 ? [i] : []))
  expect(far).toHaveLength(5)
  expect(flagged(values)).toEqual(far)
})

test('a spell is short and far off both sides the same way; a new level is no spell', () => {
  const base = synthetic({ length: 60, cv: 0.03, steps: [] }, 5)
  const spell = (at: number, length: number, factor: number) =>
    base.map((v, i) => (i >= at && i < at + length ? v * factor : v))
  expect(flagged(base)).toEqual([])
  expect(flagged(spell(20, 4, 3))).toEqual([20, 21, 22, 23])
  expect(flagged(spell(20, 4, 0.2))).toEqual([20, 21, 22, 23])
  // Longer than maxSpell: a level of its own.
  expect(flagged(spell(20, 6, 3))).toEqual([])
  expect(flagged(spell(20, 6, 3), 6)).toEqual([20, 21, 22, 23, 24, 25])
  // A step of 3× stays: its entries are far off the level before only.
  expect(flagged(spell(40, 20, 3))).toEqual([])
  // The newest entries have no level after them yet.
  expect(flagged(spell(58, 2, 3))).toEqual([])
  // A few percent off is noise the rank test reads, not a spell.
  expect(flagged(spell(20, 4, 1.05))).toEqual([])
})
