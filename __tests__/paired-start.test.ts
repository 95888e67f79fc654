/**
 * Integration: a paired case's two sides on the local engine, real HTTP relays on loopback (no
 * GNES): started at once, nothing left running when one of them fails to start, and where a
 * burst's time went.
 * @runs-alone
 */
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import { LocalEngine } from '../src/engine/local/engine'
import { ServiceFailure } from '../src/engine/types'
import type { Log } from '../src/log'
import {
  pairedCase,
  type PairedProfile,
  type PairedSettings
} from '../src/pipeline/suite/paired-case'
import type { Load } from '../src/result/schema'
import type { CaseSpec } from '../src/topology/cases'
import { caseSettings } from '../src/pipeline/suite/setup'
import { parseTopology } from '../src/topology/load'
import { DURATION, re } from './helpers/figures'
import { survivors } from './helpers/processes'
import { tmp } from './helpers/tmp'

const SINGLE = path.join(__dirname, '..', 'topologies', 'examples', 'http', 'single.yml')

/** The one-relay example, or (`exits`) a copy whose service exits at once with code 3. */
function relay(exits = false): CaseSpec {
  const text = fs.readFileSync(SINGLE, 'utf8')
  const yaml = exits
    ? text.replace('command: [python3, relay.py]', "command: [python3, -c, 'raise SystemExit(3)']")
    : text
  return { file: SINGLE, topology: parseTopology(yaml, SINGLE) }
}

/** A paired case's settings as the inputs' defaults make them, `looks` one look of 2 pairs. */
function settings(over: Partial<PairedSettings> = {}): PairedSettings {
  return {
    ...caseSettings(parseInputs({}), load),
    profiles: [],
    caseTimeoutSec: 120,
    redeploy: true,
    interleave: 'requests',
    looks: [2],
    sizeRuns: false,
    threshold: 0.025,
    cases: 1,
    ...over
  }
}

const load: Load = {
  docs: 10,
  batchSize: 1,
  docBytes: 100,
  runs: 2,
  requests: 5,
  warmupRequests: 3
}
const minimal: PairedProfile = { kind: 'minimal', rate: 20 }

/** Both sides' engines (a run id each, as a paired run's) and a log kept as lines. */
async function sides() {
  const engines = {
    base: new LocalEngine({ version: '0.0.47' }, randomUUID(), () => undefined),
    head: new LocalEngine({ version: '0.0.47' }, randomUUID(), () => undefined)
  }
  await Promise.all([engines.base.prepare(false), engines.head.prepare(false)])
  const lines: string[] = []
  const log: Log = {
    info: m => void lines.push(m),
    warn: m => void lines.push(`warning: ${m}`),
    group: (_name, work) => work()
  }
  const shutdown = () => Promise.all([engines.base.shutdown(), engines.head.shutdown()])
  return { engines, lines, log, shutdown }
}

describe("a paired case's two sides, real relays on the local engine", () => {
  test('a side that fails to start leaves nothing running: the other is stopped once it is up', async () => {
    const { engines, lines, log, shutdown } = await sides()
    try {
      const looks = pairedCase(
        engines,
        { base: relay(), head: relay(true) },
        minimal,
        settings(),
        load,
        tmp(),
        log
      )
      const first = looks.first()
      await expect(first).rejects.toThrow(ServiceFailure)
      await expect(first).rejects.toThrow(/relay-0 exited \(code 3\)/)
      // The base, started beside the head, came up and was stopped before the head's failure
      // came out, with the engines still up: nothing of either side runs.
      expect(lines).toContainEqual(expect.stringMatching(/^base: services ready in /))
      expect(lines.filter(l => l.startsWith('head: services ready'))).toEqual([])
      expect(await survivors('GNES_BENCH_SUITE', engines.base.runId, 2000)).toEqual([])
      expect(await survivors('GNES_BENCH_SUITE', engines.head.runId, 2000)).toEqual([])
    } finally {
      await shutdown()
    }
  })

  test("a burst's blocks count whole as measuring; the sides stop when the case's pairs end", async () => {
    const { engines, lines, log, shutdown } = await sides()
    try {
      const looks = pairedCase(
        engines,
        { base: relay(), head: relay() },
        { kind: 'burst' },
        settings({ interleave: 'blocks', redeploy: false }),
        load,
        tmp(),
        log
      )
      await looks.first()
      // One look, its last: the case ended, and its sides are stopped with the engines still up.
      expect(looks.open).toBe(false)
      expect(await survivors('GNES_BENCH_SUITE', engines.base.runId, 2000)).toEqual([])
      expect(await survivors('GNES_BENCH_SUITE', engines.head.runId, 2000)).toEqual([])
      const { seconds, split } = looks.result().sequence
      // No schedule says how long a burst's warm-up stream took.
      expect(split!.warmupSec).toBe(0)
      expect(split!.measureSec).toBeGreaterThan(0)
      expect(split!.startSec).toBeGreaterThan(0)
      expect(split!.teardownSec).toBeGreaterThan(0)
      const sum = split!.startSec + split!.measureSec + split!.teardownSec
      expect(Math.abs(sum - seconds!)).toBeLessThan(1)
      expect(lines).toContainEqual(
        expect.stringMatching(
          re`^case single: ${DURATION}: start ${DURATION}, warm-up 0 s, measuring ${DURATION}, teardown ${DURATION}$`
        )
      )
    } finally {
      await shutdown()
    }
  })
})
