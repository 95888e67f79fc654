import { compareMetric, compareResult, type Verdict } from '../src/judge/compare'
import { jobDrift, MIN_DRIFT_JOBS } from '../src/judge/drift'
import { renderComparisonMarkdown } from '../src/report/markdown'
import type { HistoryEntry } from '../src/history/schema'
import {
  makeEntry,
  makeResult,
  makeRuns,
  normal,
  rng,
  type RunShape
} from './fixtures/report/samples'

/**
 * History mode against drift between jobs (docs/regression.md, *Drift between jobs*): every job
 * lands at a level of its own, which no interval of one job can see. Here a job's level is drawn
 * with s.d. `jobSd` on the log scale; inside the job, runs drift 3 % and requests are noisy.
 */
const JOB: Omit<RunShape, 'scale'> = {
  runs: 5,
  requests: 40,
  base: 0.08,
  runSd: 0.03,
  requestSd: 0.2,
  ar: 0.6
}

const job = (r: () => number, jobSd: number, scale = 1): number[][] =>
  makeRuns(r, { ...JOB, scale: scale * Math.exp(jobSd * normal(r)) })

/** `jobs` recorded pushes of case 1 on main, the newest last, each a job of its own. */
function recorded(r: () => number, jobs: number, jobSd: number): HistoryEntry[] {
  return Array.from({ length: jobs }, (_, k) =>
    makeEntry(
      { id: '1', metrics: { roundtrip: job(r, jobSd) } },
      {
        sha: `${k}`.padStart(40, 'a'),
        time: new Date(Date.parse('2026-11-01T00:00:00Z') + k * 3600_000).toISOString()
      }
    )
  )
}

const OPTS = { threshold: 0.1, baseRef: 'main', mergeBaseSha: null }

const noVerdicts = (): Record<Verdict, number> => ({
  regression: 0,
  improvement: 0,
  'no-change': 0,
  inconclusive: 0
})

/**
 * The answers over `trials` pull requests against `jobs` recorded jobs; `former` the same draws
 * judged by the newest job's interval alone, which holds none of the drift.
 */
function verdictsOver(trials: number, jobs: number, jobSd: number, scale = 1) {
  const [counts, former] = [noVerdicts(), noVerdicts()]
  for (let seed = 1; seed <= trials; seed++) {
    const r = rng(seed)
    const history = recorded(r, jobs, jobSd)
    const head = job(r, jobSd, scale)
    const pr = makeResult([{ id: '1', metrics: { roundtrip: head } }])
    counts[compareResult(pr, history, OPTS).cases[0].metrics[0].verdict]++
    const newest = history[history.length - 1].runs.filter(x => !x.warmup).length
    const pooled = history[history.length - 1].samples!.roundtrip
    const base = Array.from({ length: newest }, (_, k) =>
      pooled.slice(k * JOB.requests, (k + 1) * JOB.requests)
    )
    former[compareMetric('roundtrip', base, head, OPTS.threshold).verdict]++
  }
  return { ...counts, former }
}

describe('the drift between jobs of a series', () => {
  test(`is not measured under ${MIN_DRIFT_JOBS} jobs`, () => {
    const r = rng(3)
    expect(jobDrift(recorded(r, 2, 0.1).reverse(), 'roundtrip', 0.1)).toEqual({
      jobs: 2,
      logSd: null
    })
    expect(jobDrift(recorded(r, 3, 0.1), 'no such metric', 0.1)).toEqual({ jobs: 0, logSd: null })
  })

  test('is the spread of the jobs’ levels beyond what their runs explain, over the newest 10', () => {
    const r = rng(5)
    // Jobs 12 % apart (s.d.) against runs 3 % apart: the estimate finds the jobs' part.
    const drifting = jobDrift(recorded(r, 30, 0.12).reverse(), 'roundtrip', 0.1)
    expect(drifting.jobs).toBe(10)
    expect(drifting.logSd!).toBeGreaterThan(0.06)
    expect(drifting.logSd!).toBeLessThan(0.24)
    // Jobs that differ only by their runs' own spread: little or no drift is left.
    const steady = jobDrift(recorded(r, 10, 0).reverse(), 'roundtrip', 0.1)
    expect(steady.logSd!).toBeLessThan(0.02)
  })
})

describe('history mode under drift between jobs (200 seeded trials each)', () => {
  const TRIALS = 200

  test('jobs 15 % apart, nothing changed: with 10 recorded jobs, false regressions stay near 5 % (they were a third)', () => {
    const measured = verdictsOver(TRIALS, 10, 0.15)
    expect(measured.regression + measured.improvement).toBeLessThanOrEqual(0.08 * TRIALS)
    const { former } = measured
    expect(former.regression + former.improvement).toBeGreaterThan(0.25 * TRIALS)
  })

  test('under the same drift a slowdown is found as often as one job against another allows', () => {
    // Two jobs' levels differ by 21 % (s.d.) here: a 60 % slowdown is about 2.2 s.d.
    const slower = verdictsOver(TRIALS, 10, 0.15, 1.6)
    expect(slower.regression).toBeGreaterThan(0.4 * TRIALS)
    expect(slower.improvement).toBe(0)
  })

  test('with one recorded job the drift is unmeasured: a change must clear the threshold', () => {
    // Drift within what the threshold assumes (jobs 3.5 % apart): false regressions stay rare.
    const within = verdictsOver(TRIALS, 1, 0.035)
    expect(within.regression + within.improvement).toBeLessThanOrEqual(0.05 * TRIALS)
    // A slowdown well past the threshold is still called.
    const slower = verdictsOver(TRIALS, 1, 0.035, 1.4)
    expect(slower.regression).toBeGreaterThan(0.9 * TRIALS)
  })

  test('the interval of a job without drift is the within-job test’s', () => {
    const r = rng(9)
    const history = recorded(r, 10, 0)
    const pr = makeResult([{ id: '1', metrics: { roundtrip: job(r, 0) } }])
    const m = compareResult(pr, history, OPTS).cases[0].metrics[0]
    expect(m.drift!.jobs).toBe(10)
    expect(m.drift!.logSd!).toBeLessThan(0.05)
    const newest = history[history.length - 1].samples!.roundtrip
    const base = Array.from({ length: JOB.runs }, (_, k) =>
      newest.slice(k * JOB.requests, (k + 1) * JOB.requests)
    )
    const within = compareMetric(
      'roundtrip',
      base,
      pr.cases[0].runs.slice(1).map(x => x.samples.roundtrip),
      0.1
    )
    expect(m.ci![1] - m.ci![0]).toBeLessThan(1.3 * (within.ci![1] - within.ci![0]))
  })
})

describe('the report says how each case allowed for drift', () => {
  test('measured, or too few jobs to measure', () => {
    const r = rng(21)
    const pr = makeResult([{ id: '1', metrics: { roundtrip: job(r, 0.1) } }])
    const many = renderComparisonMarkdown(compareResult(pr, recorded(r, 6, 0.1), OPTS))
    expect(many).toMatch(
      /Drift between jobs:\n- Case 1 case 1 · burst: separate jobs of this series drift by ±[\d.]+ ?% \(s\.d\. from its 6 recorded jobs on the base branch beyond what their runs show\); the interval holds it\./
    )
    const one = renderComparisonMarkdown(compareResult(pr, recorded(r, 1, 0.1), OPTS))
    expect(one).toContain(
      '- Case 1 case 1 · burst: the history holds 1 recorded job of this series on the base branch, and 3 are needed to measure how far jobs drift apart, so a change had to clear ±10%.'
    )
  })

  test('pull-request entries and other branches are not jobs of the base branch', () => {
    const r = rng(23)
    const history = [
      ...recorded(r, 1, 0.1),
      ...recorded(r, 4, 0.1).map(e => ({
        ...e,
        commit: { ...e.commit, event: 'pull_request', ref: 'refs/pull/1/merge' }
      })),
      ...recorded(r, 4, 0.1).map(e => ({ ...e, commit: { ...e.commit, ref: 'refs/heads/dev' } }))
    ]
    const pr = makeResult([{ id: '1', metrics: { roundtrip: job(r, 0.1) } }])
    expect(compareResult(pr, history, OPTS).cases[0].metrics[0].drift).toEqual({
      jobs: 1,
      logSd: null
    })
  })
})
