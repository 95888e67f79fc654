/**
 * Integration: paired mode with real GNES on the local engine, two releases on case 1 at a small
 * load. GNES 0.0.46 is provisioned into the venv cache on first use (about a minute).
 */
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import type { Log } from '../src/log'
import { assetPath } from '../src/paths'
import { comparePaired } from '../src/judge/paired'
import { renderPairedMarkdown } from '../src/report/paired-markdown'
import { orderLetters } from '../src/client/interleave'
import type { TimeSplit } from '../src/judge/sequential'
import { runPairedSuite, type PairedRun } from '../src/pipeline/suite/paired'
import { CLIENT_START_SECONDS } from '../src/pipeline/suite/paired-case'
import { DURATION, re, SECONDS, SHARE } from './helpers/figures'
import { pidsWithEnv, survivors } from './helpers/processes'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

/** A paired run of 0.0.46 beside 0.0.47 on case 1 at a small load, its log and process counts. */
async function pairedRun(extra: Record<string, string>) {
  const [suiteId, baseSuiteId] = [randomUUID(), randomUUID()]
  const alive = () =>
    pidsWithEnv('GNES_BENCH_SUITE', suiteId).length +
    pidsWithEnv('GNES_BENCH_SUITE', baseSuiteId).length
  const lines: string[] = []
  const aliveAtReady: number[] = []
  const log: Log = {
    info: m => {
      lines.push(m)
      if (/^(base|head): services ready/.test(m)) {
        aliveAtReady.push(alive())
      }
    },
    warn: m => lines.push(`warning: ${m}`),
    group: async (name, work) => {
      lines.push(`== ${name}`)
      return work()
    }
  }
  const outDir = tmp('gnes-paired-')
  const inputs = parseInputs({
    baseline: 'paired',
    'baseline-gnes-version': '0.0.46',
    'gnes-version': '0.0.47',
    cases: '1',
    engine: 'local',
    profiles: 'minimal,burst',
    runs: '2',
    'max-pairs': '2',
    requests: '5',
    'warmup-requests': '3',
    'doc-bytes': '1000',
    'out-dir': outDir,
    ...extra
  })
  const paired = await runPairedSuite(inputs, { log, suiteId, baseSuiteId })
  const left = [
    ...(await survivors('GNES_BENCH_SUITE', suiteId, 2000)),
    ...(await survivors('GNES_BENCH_SUITE', baseSuiteId, 2000))
  ]
  return { paired, lines, aliveAtReady, outDir, suiteId, baseSuiteId, left }
}

/**
 * Both sides started at once, `deployments` times: when the first of them was ready the other's
 * processes had started too (more than its own three), and when the second was all six ran.
 */
function expectStartedAtOnce(aliveAtReady: number[], deployments: number): void {
  expect(aliveAtReady).toHaveLength(2 * deployments)
  for (let k = 0; k < deployments; k++) {
    expect(aliveAtReady[2 * k]).toBeGreaterThan(3)
    expect(aliveAtReady[2 * k]).toBeLessThanOrEqual(6)
    expect(aliveAtReady[2 * k + 1]).toBe(6)
  }
}

/**
 * Where case 1's time went, said once in the log: four parts, none negative, adding up to its
 * seconds within a second (the bookkeeping between them). `streams` streams or blocks, each of 3
 * warm-up or lead-in requests and 5 measured ones at 5 req/s: their warm-up at least those 3
 * requests' schedule, their measuring at least the measured requests' (first to last).
 */
function expectTimeSplit(paired: PairedRun, lines: string[], streams: number): TimeSplit {
  const [{ seconds, split }] = paired.sequences
  const { startSec, warmupSec, measureSec, teardownSec } = split!
  for (const part of [startSec, warmupSec, measureSec, teardownSec]) {
    expect(part).toBeGreaterThanOrEqual(0)
  }
  expect(Math.abs(startSec + warmupSec + measureSec + teardownSec - seconds!)).toBeLessThan(1)
  expect(startSec).toBeGreaterThan(0)
  expect(teardownSec).toBeGreaterThan(0)
  expect(warmupSec).toBeGreaterThanOrEqual(streams * (3 / 5))
  expect(measureSec).toBeGreaterThan(streams * (4 / 5))
  const said = new RegExp(
    `^case 1: ${DURATION}: start ${DURATION}, warm-up ${DURATION}, measuring ${DURATION}, teardown ${DURATION}$`
  )
  expect(lines.filter(l => l.startsWith('case 1: '))).toEqual([expect.stringMatching(said)])
  return split!
}

/** Every run of the side behind in its pair starts half a period (100 ms) after its pair's other. */
function expectOffsets(paired: PairedRun): void {
  const runs = (r: typeof paired.head) => r.cases[0].runs
  runs(paired.head).forEach((run, k) => {
    const behind = Date.parse(run.startedAt) - Date.parse(runs(paired.base)[k].startedAt)
    expect(Math.abs(behind - (run.pairLead === 'base' ? 100 : -100))).toBeLessThanOrEqual(1)
  })
}

/** Two pairs, each side deployed afresh for each: a full warm-up before every pair's run. */
function expectFreshPairs(paired: PairedRun): void {
  for (const side of [paired.base, paired.head]) {
    expect(side.cases[0].runs.map(r => [r.warmup, r.requests])).toEqual([
      [true, 3],
      [false, 5],
      [true, 3],
      [false, 5]
    ])
  }
}

describe('paired mode on the local engine with real GNES', () => {
  it('measures 0.0.46 beside 0.0.47 on case 1 in ABBA order, both deployed once, and leaves no process', async () => {
    const { paired, lines, aliveAtReady, suiteId, baseSuiteId, left } = await pairedRun({
      'paired-interleave': 'blocks',
      'paired-deploy': 'once'
    })

    expectStorableResult(paired.head)
    expectStorableResult(paired.base)
    expect([paired.head.id, paired.base.id]).toEqual([suiteId, baseSuiteId])
    expect(paired.head.meta.gnes?.version).toBe('0.0.47')
    expect(paired.base.meta.gnes?.version).toBe('0.0.46')
    expect(orderLetters(paired.order)).toBe('ABBA')
    expect(lines).toContain('paired mode measures minimal only; not run: burst')
    expect(lines).toContain(
      '== Case 1: non-blocking, paired on this runner (pairs of runs in the order `ABBA…`; A = base, B = head; 2 pairs)'
    )

    // One deployment a side, both started at once before the first block.
    expectStartedAtOnce(aliveAtReady, 1)
    expect(lines.filter(l => /services ready/.test(l))).toHaveLength(2)
    // Four blocks, each led in with 3 requests (the warm-up, then a new stream's lead-in).
    expectTimeSplit(paired, lines, 4)

    for (const side of [paired.base, paired.head]) {
      const [c] = side.cases
      expect(c.profile).toEqual({ kind: 'minimal', rate: 5 })
      // The whole warm-up before the first block, a short lead-in before the second.
      expect(c.runs.map(r => [r.warmup, r.requests])).toEqual([
        [true, 3],
        [false, 5],
        [true, 3],
        [false, 5]
      ])
      expect(c.runs.map(r => r.index)).toEqual([0, 1, 2, 3])
    }
    // The blocks ran base, head, head, base.
    const started = (r: typeof paired.head, k: number) =>
      Date.parse(r.cases[0].runs.filter(x => !x.warmup)[k].startedAt)
    expect(started(paired.base, 0)).toBeLessThan(started(paired.head, 0))
    expect(started(paired.head, 0)).toBeLessThan(started(paired.head, 1))
    expect(started(paired.head, 1)).toBeLessThan(started(paired.base, 1))

    const c = comparePaired(paired, { threshold: 0.1 })
    // GNES at minimal load is judged by `path`; `latency` is a diagnostic.
    expect(c.cases[0].metrics.find(m => m.metric === 'latency')!.gating).toBe(false)
    const gate = c.cases[0].metrics.find(m => m.gating)!
    expect(gate.metric).toBe('path')
    expect(gate.ratios).toHaveLength(2)
    for (const r of gate.ratios) expect(r).toBeGreaterThan(0)
    expect(Number.isFinite(gate.ci[0]) && Number.isFinite(gate.ci[1])).toBe(true)

    expect(left).toEqual([])
  })

  it('interleaved by requests: both sides at once on one clock, the side ahead by half a period alternating', async () => {
    const { paired, lines, aliveAtReady, left } = await pairedRun({ 'paired-deploy': 'once' })
    expect(paired.interleave).toBe('requests')
    expect(orderLetters(paired.order)).toBe('ABBA')
    expect(lines).toContain(
      '== Case 1: non-blocking, paired on this runner (pairs of runs, both sides at once with their requests alternating, the side half a period ahead alternating pair by pair (`ABBA…`); A = base, B = head; 2 pairs)'
    )
    expect(lines).toContain(
      "pair 1: base and head at once, the head's requests 100 ms after the base's"
    )
    expect(lines).toContain(
      "pair 2: base and head at once, the base's requests 100 ms after the head's"
    )
    expectStartedAtOnce(aliveAtReady, 1)
    for (const side of [paired.base, paired.head]) {
      expectStorableResult(side)
      // One stream a side per pair: the warm-up, then a stream led in on the kept deployment.
      expect(side.cases[0].runs.map(r => [r.warmup, r.requests])).toEqual([
        [true, 3],
        [false, 5],
        [true, 3],
        [false, 5]
      ])
      expect(side.cases[0].runs.map(r => r.pairLead)).toEqual(['base', 'base', 'head', 'head'])
    }
    // Both schedules on one clock: each run of the side behind starts exactly half a period
    // (100 ms at 5 req/s) after the run it is paired with, and a warm-up lasts its 3 requests.
    expectOffsets(paired)
    const base = paired.base.cases[0].runs.map(x => Date.parse(x.startedAt))
    expect(Math.abs(base[1] - base[0] - 600)).toBeLessThanOrEqual(1)

    // GNES at minimal load is judged by `path`, which leaves the client's transfer out.
    const gate = comparePaired(paired, { threshold: 0.1 }).cases[0].metrics.find(m => m.gating)!
    expect(gate.metric).toBe('path')
    expect(gate.ratios).toHaveLength(2)
    expect(left).toEqual([])
  })

  it('by default deploys both sides afresh for every pair, each pair at once on one clock after a full warm-up', async () => {
    const { paired, lines, aliveAtReady, outDir, left } = await pairedRun({})
    expect([paired.interleave, orderLetters(paired.order)]).toEqual(['requests', 'ABBA'])
    expectStartedAtOnce(aliveAtReady, 2)
    // Each pair's sides, started at once after the last pair's streams, ready before its own.
    const ready = lines.filter(l => /services ready/.test(l)).map(l => l.split(':')[0])
    expect([ready.slice(0, 2).sort(), ready.slice(2).sort()]).toEqual([
      ['base', 'head'],
      ['base', 'head']
    ])
    const at = lines.flatMap((l, i) => (/services ready/.test(l) ? [i] : []))
    expect(at[2]).toBeGreaterThan(
      lines.indexOf("pair 1: base and head at once, the head's requests 100 ms after the base's")
    )
    expect(at[3]).toBeLessThan(
      lines.indexOf("pair 2: base and head at once, the base's requests 100 ms after the head's")
    )
    expectFreshPairs(paired)
    expectOffsets(paired)
    // Two pairs, each one stream a side on one clock, warmed up in full: each pair's warm-up is
    // the clients' start and the 3 requests at 5 req/s, on schedule.
    const split = expectTimeSplit(paired, lines, 2)
    expect(split.warmupSec).toBeCloseTo(2 * (CLIENT_START_SECONDS + 3 / 5), 2)
    for (const side of ['base', 'head']) {
      expect(fs.readdirSync(path.join(outDir, 'logs', 'case-1', side))).toEqual([
        'pair-1',
        'pair-2'
      ])
    }
    expect(left).toEqual([])
  })

  it('with paired-deploy: per-pair starts both sides afresh for every pair, each block warmed up in full', async () => {
    const { paired, lines, aliveAtReady, outDir, left } = await pairedRun({
      'paired-deploy': 'per-pair',
      'paired-interleave': 'blocks'
    })
    expect(orderLetters(paired.order)).toBe('ABBA')
    // Two deployments a side; the first pair's were stopped before the second pair's started.
    expect(lines.filter(l => /services ready/.test(l))).toHaveLength(4)
    expectStartedAtOnce(aliveAtReady, 2)
    const ready = lines.flatMap((l, i) => (/services ready/.test(l) ? [i] : []))
    expect(ready[2]).toBeGreaterThan(lines.indexOf('block 2/4: pair 1, head'))
    expect(ready[3]).toBeLessThan(lines.indexOf('block 3/4: pair 2, head'))
    expectFreshPairs(paired)
    for (const side of ['base', 'head']) {
      for (const pair of ['pair-1', 'pair-2']) {
        expect(
          fs.readdirSync(path.join(outDir, 'logs', 'case-1', side, pair)).length
        ).toBeGreaterThan(0)
      }
    }
    expect(left).toEqual([])
  })

  it('adds pairs at the planned looks while it cannot tell, and names the hop of a slower router', async () => {
    const slow = assetPath('topologies', 'examples', 'case1-router2-1ms.yml')
    const case1 = assetPath('topologies', 'case1.yml')
    const adaptive = {
      'baseline-gnes-version': '',
      'baseline-topology': case1,
      'paired-deploy': 'once',
      profiles: 'minimal',
      runs: '6',
      'max-pairs': '9',
      'alert-threshold': '2.5%'
    }
    // Router2 1 ms slower: with requests of 10 × 1000 B, `path` is a few ms, so +1 ms is tens
    // of percent, and `r2:proc` says where it went. Beside other test suites on two cores 9
    // pairs may still not tell (CI once): the answer is then inconclusive, never "no change" or
    // faster, and Router2's own time always moved.
    const slower = await pairedRun({ ...adaptive, topology: slow })
    const c = comparePaired(slower.paired, { threshold: 0.025 })
    expect(c.verdicts).toEqual([
      {
        case: '1',
        profile: 'minimal@5',
        metric: 'path',
        verdict: expect.stringMatching(/^(regression|inconclusive)$/)
      }
    ])
    expect(c.cases[0].metrics.find(m => m.metric === 'r2:proc')).toMatchObject({
      verdict: 'regression'
    })
    // `r2:proc` first, as the largest part that moved; another hop inside `path` may join it
    // on a runner's noise, the client's transfer (outside `path`) never. Its share of the band's
    // move, or its move in time when that move's own interval holds zero (the share unbounded).
    if (c.verdicts[0].verdict === 'regression') {
      const said = renderPairedMarkdown(c)
      expect(said).toMatch(
        re`: \`r2:proc\` \(router 2's own time\) \+${SECONDS} \((?:${SHARE}, interval ${SHARE} … ${SHARE}|interval [^)]+)\)`
      )
      expect(said).not.toContain('`c->f:send` (client → frontend)')
    }
    expect(slower.lines).toContain(
      '== Case 1: non-blocking, Router2 1 ms slower, paired on this runner (pairs of runs, both sides at once with their requests alternating, the side half a period ahead alternating pair by pair (`ABBAABBAABBA…`); A = base, B = head; looks at 6, 9 pairs)'
    )
    expect(slower.left).toEqual([])

    // Identical copies: whatever the answer, the run stopped at a planned look, for the reason
    // its log gives, and both sides measured that many runs.
    const same = await pairedRun({ ...adaptive, topology: case1, canary: 'true' })
    const [sequence] = same.paired.sequences
    expect([6, 9]).toContain(sequence.pairs)
    const looks = same.lines.filter(l => l.startsWith('look '))
    expect(looks.length).toBe(
      [6, 9].indexOf(sequence.pairs) + (sequence.stop === 'decisive' ? 1 : 0)
    )
    // Judged by `path`, the verdict metric of GNES at minimal load, at every look.
    looks.forEach(l => expect(l).toMatch(/^look \d: path [+-]\d/))
    looks.slice(0, -1).forEach(l => expect(l).toMatch(/: inconclusive$/))
    // More pairs come out of the budget once every case has had its first look (here one).
    if (sequence.pairs === 9) {
      expect(same.lines).toContainEqual(
        expect.stringMatching(
          /^== Case 1: more pairs, \d+ s of the \d+ s left of paired-budget-minutes, shared by the 1 case still undecided$/
        )
      )
      expect(same.lines).toContain('after 6 pairs: inconclusive; adding 3 pairs')
    }
    if (sequence.stop === 'decisive')
      expect(looks.at(-1)).toMatch(/: (no-change|regression|improvement)$/)
    else expect(sequence.stop).toBe('max-pairs')
    for (const side of [same.paired.base, same.paired.head]) {
      expect(side.cases[0].runs.filter(r => !r.warmup)).toHaveLength(sequence.pairs)
    }
    const answer = comparePaired(same.paired, { threshold: 0.025 }).cases[0]
    expect(answer.sequence).toEqual(sequence)
    expect(answer.metrics.find(m => m.gating)!.ratios).toHaveLength(sequence.pairs)
    // The canary: the base beside itself after the case, the first look's pairs, never judged.
    expect(same.lines).toContain('== Case 1: canary, the base beside itself')
    const [canary] = same.paired.canaries
    for (const side of [canary!.base, canary!.head]) {
      expect(side.topologyFile).toBe(same.paired.base.cases[0].topologyFile)
      expect(side.runs.filter(r => !r.warmup)).toHaveLength(6)
    }
    expect(answer.canary).toMatchObject({ metric: 'path', gating: false })
    expect(answer.canary!.ratios).toHaveLength(6)
    expect(same.left).toEqual([])
  })
})
