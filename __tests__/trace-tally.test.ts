import type { RequestRecord } from '../src/client/http-load'
import { entriesFromResult } from '../src/history/from-result'
import { HistoryEntrySchema } from '../src/history/schema'
import { compareResult } from '../src/judge/compare'
import { comparePaired } from '../src/judge/paired'
import { abbaOrder } from '../src/client/interleave'
import {
  dropsBetween,
  NO_DROPS,
  runTraceTally,
  sumTraceTallies,
  tracesWhole
} from '../src/metrics/trace-tally'
import { renderComparisonMarkdown } from '../src/report/markdown'
import { renderPairedMarkdown } from '../src/report/paired-markdown'
import { traceNote } from '../src/report/trace-text'
import { ResultSchema, type Result, type TraceTally } from '../src/result/schema'
import { makeEntry, makeResult, makeRuns, rng } from './fixtures/report/samples'

const answer = { scheduled: 1, sent: 1, done: 1.001, status: 200, error: null }
const whole: TraceTally = { traced: 4, complete: 4, spans: 36, dropped: { ...NO_DROPS } }

test('a run’s tally counts its traced requests, the whole traces, their spans and the drops', () => {
  const records: RequestRecord[] = [
    { ...answer, traceId: 'a', trace: { spans: 9, complete: true } },
    { ...answer, traceId: 'b', trace: { spans: 4, complete: false } },
    { ...answer, traceId: 'c', trace: { spans: 0, complete: false } },
    { ...answer }
  ]
  const dropped = dropsBetween(
    { ...NO_DROPS, late: 2, malformed: 1 },
    { ...NO_DROPS, late: 5, malformed: 1, unknownTrace: 3 }
  )
  expect(dropped).toEqual({ ...NO_DROPS, late: 3, unknownTrace: 3 })
  expect(runTraceTally(records, dropped)).toEqual({ traced: 3, complete: 1, spans: 13, dropped })
})

test('tallies add up over runs; runs without one (hops not from traces) give none', () => {
  const late = { ...whole, complete: 3, dropped: { ...NO_DROPS, late: 2 } }
  expect(sumTraceTallies([whole, undefined, late])).toEqual({
    traced: 8,
    complete: 7,
    spans: 72,
    dropped: { ...NO_DROPS, late: 2 }
  })
  expect(sumTraceTallies([undefined, undefined])).toBeNull()
  expect([tracesWhole(whole), tracesWhole(late)]).toEqual([true, false])
})

test('the note is silent when all is well, and otherwise names what was missed and why', () => {
  expect(traceNote(null)).toBeNull()
  expect(traceNote(whole)).toBeNull()
  const dropped = { ...NO_DROPS, late: 3, tooLarge: 1 }
  expect(traceNote({ ...whole, dropped })).toBe(
    'traces: 4 of 4 traced requests came back complete, 36 spans joined; ' +
      'spans 4 dropped: 1 too large, 3 late (after their request was joined).'
  )
  expect(traceNote({ ...whole, complete: 3 })).toBe(
    'traces: 3 of 4 traced requests came back complete, 36 spans joined. ' +
      'An incomplete trace leaves its request short of hop figures.'
  )
})

/** A generic-looking result whose runs carry `tally` (none: hops not from traces). */
function traced(result: Result, tally?: TraceTally): Result {
  const cases = result.cases.map(c => ({
    ...c,
    runs: c.runs.map(r => ({ ...r, ...(tally && { traces: tally }) }))
  }))
  return { ...result, cases }
}

const r = rng(7)
const shape = {
  runs: 3,
  requests: 20,
  base: 0.01,
  runSd: 0.001,
  requestSd: 0.002,
  ar: 0.3,
  scale: 1
}
const caseRuns = { id: 'otlp', name: 'traced chain', metrics: { roundtrip: makeRuns(r, shape) } }
const short = { ...whole, complete: 2, dropped: { ...NO_DROPS, unknownTrace: 5 } }

test('results and history entries keep the tallies, and those written before them still read', () => {
  const plain = makeResult([caseRuns])
  expect(ResultSchema.parse(JSON.parse(JSON.stringify(plain)))).toEqual(plain)
  const withTraces = traced(plain, short)
  expect(ResultSchema.parse(JSON.parse(JSON.stringify(withTraces)))).toEqual(withTraces)
  const [entry] = entriesFromResult(withTraces)
  expect(HistoryEntrySchema.parse(JSON.parse(JSON.stringify(entry))).runs[1].traces).toEqual(short)
  const [old] = entriesFromResult(plain)
  expect(HistoryEntrySchema.parse(JSON.parse(JSON.stringify(old))).runs[1]).not.toHaveProperty(
    'traces'
  )
})

test('the comment has a line under a case whose traces missed something, none otherwise', () => {
  const history = [makeEntry(caseRuns)]
  const opts = { threshold: 0.1, baseRef: null, mergeBaseSha: null }
  const line = (result: Result) =>
    renderComparisonMarkdown(compareResult(result, history, opts))
      .split('\n')
      .filter(l => l.includes('traces:'))
  const runs = makeResult([caseRuns]).cases[0].runs.length
  expect(line(traced(makeResult([caseRuns]), short))).toEqual([
    `- Case otlp traced chain · burst: ${traceNote(sumTraceTallies(Array(runs).fill(short)))}`
  ])
  expect(line(traced(makeResult([caseRuns]), whole))).toEqual([])
  expect(line(makeResult([caseRuns]))).toEqual([])
})

test('the paired report names the side whose traces missed something', () => {
  const run = {
    base: traced(makeResult([caseRuns]), whole),
    head: traced(makeResult([caseRuns]), short),
    order: abbaOrder(3),
    interleave: 'blocks' as const
  }
  const md = renderPairedMarkdown(comparePaired(run, { threshold: 0.025 }))
  const lines = md.split('\n').filter(l => l.includes('traces:'))
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^- otlp traced chain · burst, head: traces: \d+ of \d+ traced requests/)
})
