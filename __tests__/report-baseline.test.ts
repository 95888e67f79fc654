import { selectBaseline, type BaselineQuery } from '../src/judge/baseline'
import { makeEntry, type EntryOptions } from './fixtures/report/samples'

const runs = {
  roundtrip: [
    [0.1, 0.2],
    [0.1, 0.2]
  ]
}
const entry = (o: EntryOptions, caseId = '1') => makeEntry({ id: caseId, metrics: runs }, o)

const MERGE_BASE = '1111111111111111111111111111111111111111'
const query: BaselineQuery = {
  caseId: '1',
  profile: { kind: 'burst' },
  load: { docs: 500, batchSize: 10, docBytes: 1000000 },
  engine: 'local',
  cpusAwake: false,
  baseRef: 'main',
  mergeBaseSha: MERGE_BASE
}

describe('selectBaseline', () => {
  const older = entry({ sha: MERGE_BASE, time: '2026-11-01T00:00:00Z' })
  const newer = entry({ sha: '2'.repeat(40), time: '2026-11-10T00:00:00Z' })
  const otherBranch = entry({
    sha: '3'.repeat(40),
    ref: 'refs/heads/dev',
    time: '2026-11-12T00:00:00Z'
  })
  const prRun = entry({
    sha: '4'.repeat(40),
    ref: 'refs/pull/7/merge',
    event: 'pull_request',
    time: '2026-11-13T00:00:00Z'
  })

  test('the merge-base commit wins over newer entries of the base branch', () => {
    expect(selectBaseline([newer, older, otherBranch], query)).toEqual({
      entry: older,
      reason: 'merge-base'
    })
  })

  test('an abbreviated merge-base SHA still matches', () => {
    expect(selectBaseline([newer, older], { ...query, mergeBaseSha: '1111111' }).entry).toBe(older)
  })

  test('the branch record of the merge-base beats a release tag at the same commit', () => {
    const tag = entry({
      sha: MERGE_BASE,
      ref: 'refs/tags/v2.0.0',
      event: 'release',
      time: '2026-11-02T00:00:00Z'
    })
    expect(selectBaseline([tag, older], query).entry).toBe(older)
    expect(selectBaseline([tag], query)).toEqual({ entry: tag, reason: 'merge-base' })
  })

  test('without the merge-base in history: newest entry of the base branch, never a PR run', () => {
    const q = { ...query, mergeBaseSha: '9'.repeat(40) }
    expect(selectBaseline([older, newer, otherBranch, prRun], q)).toEqual({
      entry: newer,
      reason: 'latest-on-base'
    })
    expect(selectBaseline([older, newer], { ...q, baseRef: 'refs/heads/main' }).entry).toBe(newer)
  })

  test('no base ref: the newest entry anywhere, still never a PR run', () => {
    const q = { ...query, baseRef: null, mergeBaseSha: null }
    expect(selectBaseline([older, otherBranch, prRun], q)).toEqual({
      entry: otherBranch,
      reason: 'latest'
    })
  })

  test('only the same case, engine, CPU wake-up setting and per-request load are comparable', () => {
    const q = { ...query, mergeBaseSha: null }
    const docker = entry({ engine: 'docker', time: '2026-11-20T00:00:00Z' })
    const smaller = entry({ load: { docBytes: 1000 }, time: '2026-11-20T00:00:00Z' })
    const moreRuns = entry({ load: { runs: 10 }, time: '2026-11-21T00:00:00Z' })
    const awake = { ...entry({ time: '2026-11-21T12:00:00Z' }), cpusAwake: true }
    const case2 = entry({ time: '2026-11-22T00:00:00Z' }, '2')
    const all = [older, docker, smaller, moreRuns, awake, case2]
    expect(selectBaseline(all, q).entry).toBe(moreRuns)
    // Entries from before the setting existed count as not held awake.
    expect(selectBaseline(all, { ...q, cpusAwake: true }).entry).toBe(awake)
  })

  test('says why there is no baseline', () => {
    expect(selectBaseline([], query)).toEqual({ entry: null, reason: 'no history entry of case 1' })
    expect(selectBaseline([entry({ engine: 'docker' })], query).reason).toBe(
      'no history entry of case 1 under burst (standard load, legacy-comparable) with engine local, CPUs not held awake and 500 docs × 1000000 B, batch 10'
    )
    expect(selectBaseline([otherBranch], { ...query, mergeBaseSha: null }).reason).toBe(
      'no comparable history entry of case 1 on branch main'
    )
  })
})
