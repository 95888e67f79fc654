import { CaseIndexSchema } from '../src/history/manifest'
import { expandRanges, toRanges } from '../src/site/month-ranges'

test('consecutive months become one range, across years; a gap starts another', () => {
  expect(toRanges(['2016-11', '2010-01', '2010-02', '2016-12', '2017-01', '2010-02'])).toEqual([
    '2010-01..2010-02',
    '2016-11..2017-01'
  ])
  expect(toRanges(['2019-03'])).toEqual(['2019-03'])
  expect(toRanges([])).toEqual([])
})

test('ranges expand to every month they hold, and back to the same ranges', () => {
  const months = expandRanges(['2009-12..2010-02', '2012-05'])
  expect(months).toEqual(['2009-12', '2010-01', '2010-02', '2012-05'])
  expect(toRanges(months)).toEqual(['2009-12..2010-02', '2012-05'])
  // 68 years of monthly runs: one range, however long the history.
  const long = expandRanges(['1958-01..2025-12'])
  expect(long).toHaveLength(68 * 12)
  expect(toRanges(long)).toEqual(['1958-01..2025-12'])
})

test('a case head lists ranges; single months (heads written before ranges) still validate; a reversed or malformed range does not', () => {
  const head = {
    schema: 'gnes-latency-bench/history-index@3',
    caseId: '1',
    tree: null,
    entries: 1,
    missing: 0
  }
  expect(
    CaseIndexSchema.safeParse({ ...head, months: ['2010-01', '2010-03..2011-02'] }).success
  ).toBe(true)
  expect(CaseIndexSchema.safeParse({ ...head, months: ['2011-02..2010-03'] }).success).toBe(false)
  expect(CaseIndexSchema.safeParse({ ...head, months: ['2010-13'] }).success).toBe(false)
  expect(CaseIndexSchema.safeParse({ ...head, months: ['2010-01..'] }).success).toBe(false)
  expect(() => expandRanges(['2011-02..2010-03'])).toThrow(/ends before it starts/)
})
