import { runSpread } from '../src/pipeline/suite/profile'
import { makeResult } from './fixtures/history/result'

const runs = makeResult().cases[0].runs

test('runs within a factor of 2 of each other pass without a word', () => {
  expect(runSpread({ kind: 'burst' }, runs, 'roundtrip')).toBeNull()
})

test('measured runs spread by more than 2× are named in a warning; warm-ups do not count', () => {
  const spread = runs.map(r =>
    r.index === 2
      ? { ...r, summaries: { ...r.summaries, roundtrip: { ...r.summaries.roundtrip, mean: 0.6 } } }
      : r
  )
  expect(runSpread({ kind: 'burst' }, spread, 'roundtrip')).toMatch(
    /^the measured runs' roundtrip means span \d+(\.\d+)? ms … 600(\.0)? ms \(×5\.\d\): this runner was noisy/
  )
  // The warm-up (index 0) alone far off changes nothing.
  const warm = runs.map(r =>
    r.warmup
      ? { ...r, summaries: { ...r.summaries, roundtrip: { ...r.summaries.roundtrip, mean: 9 } } }
      : r
  )
  expect(runSpread({ kind: 'burst' }, warm, 'roundtrip')).toBeNull()
})
