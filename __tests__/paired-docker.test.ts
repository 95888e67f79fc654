/**
 * Integration: paired mode with real GNES on Docker, two releases on case 1 at a small load, and
 * case 1 beside itself with Router2 1 ms slower (a regression, or inconclusive when it cannot
 * tell). Each side's image is built from PyPI through the Engine API on first use;
 * a second provisioning of the same version finds its image and builds nothing.
 */
import { randomUUID } from 'node:crypto'
import { parseInputs } from '../src/config/inputs'
import Docker from 'dockerode'
import { createDockerEngine } from '../src/engine/docker'
import { LABEL } from '../src/engine/docker/labels'
import type { Log } from '../src/log'
import { assetPath } from '../src/paths'
import { comparePaired } from '../src/judge/paired'
import { renderPairedMarkdown } from '../src/report/paired-markdown'
import { orderLetters } from '../src/client/interleave'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import { BASE_IMAGE, describeDocker, leftovers } from './helpers/docker'
import { re, SECONDS, SHARE } from './helpers/figures'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

/** A run's service containers (its clients, started once both sides are ready, are not). */
async function services(runId: string): Promise<number> {
  const filters = JSON.stringify({ label: [`${LABEL.runId}=${runId}`, LABEL.service] })
  return (await new Docker().listContainers({ all: true, filters })).length
}

describeDocker('paired mode on Docker with real GNES', () => {
  it('measures a 0.0.46 image beside a 0.0.47 one, both at once with their requests alternating, both deployed once, and leaves nothing', async () => {
    const [suiteId, baseSuiteId] = [randomUUID(), randomUUID()]
    const lines: string[] = []
    const upAtReady: number[] = []
    const log: Log = {
      info: m => {
        lines.push(m)
        if (/^(base|head): services ready/.test(m)) {
          void Promise.all([services(baseSuiteId), services(suiteId)]).then(([b, h]) =>
            upAtReady.push(b + h)
          )
        }
      },
      warn: m => lines.push(`warning: ${m}`),
      group: async (name, work) => {
        lines.push(`== ${name}`)
        return work()
      }
    }
    const inputs = parseInputs({
      baseline: 'paired',
      'baseline-gnes-version': '0.0.46',
      'gnes-version': '0.0.47',
      cases: '1',
      engine: 'docker',
      'paired-deploy': 'once',
      'base-image': BASE_IMAGE,
      profiles: 'minimal',
      runs: '2',
      'max-pairs': '2',
      requests: '5',
      'warmup-requests': '3',
      'doc-bytes': '1000',
      'out-dir': tmp()
    })
    const paired = await runPairedSuite(inputs, { log, suiteId, baseSuiteId })

    expectStorableResult(paired.head)
    expectStorableResult(paired.base)
    expect(paired.head.meta.engine).toBe('docker')
    expect(paired.base.meta.engine).toBe('docker')
    expect(paired.head.meta.gnes?.version).toBe('0.0.47')
    expect(paired.base.meta.gnes?.version).toBe('0.0.46')
    expect(orderLetters(paired.order)).toBe('ABBA')
    // The two client containers read the host's clock: each run of the side behind in its pair
    // starts half a period (100 ms at 5 req/s) after its pair's other.
    const runs = (r: typeof paired.head) => r.cases[0].runs
    runs(paired.head).forEach((run, k) => {
      const behind = Date.parse(run.startedAt) - Date.parse(runs(paired.base)[k].startedAt)
      expect(Math.abs(behind - (run.pairLead === 'base' ? 100 : -100))).toBeLessThanOrEqual(1)
    })
    // One deployment a side, both started at once: the other side's containers were there before
    // the first side was ready (more than its own three), and all six when the second was.
    await new Promise(r => setTimeout(r, 500))
    const [first, second] = upAtReady.sort()
    expect(first).toBeGreaterThan(3)
    expect(second).toBe(6)
    expect(lines.filter(l => /services ready/.test(l))).toHaveLength(2)

    const c = comparePaired(paired, { threshold: 0.1 })
    // GNES at minimal load is judged by `path`; `latency` is a diagnostic.
    expect(c.cases[0].metrics.find(m => m.metric === 'latency')!.gating).toBe(false)
    const gate = c.cases[0].metrics.find(m => m.gating)!
    expect(gate.metric).toBe('path')
    expect(gate.ratios).toHaveLength(2)
    for (const r of gate.ratios) expect(r).toBeGreaterThan(0)

    expect(await leftovers(suiteId)).toBe(0)
    expect(await leftovers(baseSuiteId)).toBe(0)

    // The base's image is cached by version: provisioning it again builds nothing.
    const again: string[] = []
    const engine = createDockerEngine({
      gnesVersion: '0.0.46',
      baseImage: BASE_IMAGE,
      log: l => again.push(l)
    })
    try {
      expect(await engine.prepare()).toMatchObject({ version: '0.0.46' })
    } finally {
      await engine.shutdown()
    }
    expect(again.join('\n')).not.toMatch(/installing GNES/)
  })

  it('a router 1 ms slower, in containers: never "no change", and the hop that moved', async () => {
    const suiteId = randomUUID()
    const baseSuiteId = randomUUID()
    const lines: string[] = []
    const log: Log = {
      info: m => void lines.push(m),
      warn: m => void lines.push(`warning: ${m}`),
      group: async (_name, work) => work()
    }
    const inputs = parseInputs({
      baseline: 'paired',
      'baseline-topology': assetPath('topologies', 'case1.yml'),
      topology: assetPath('topologies', 'examples', 'case1-router2-1ms.yml'),
      cases: '1',
      engine: 'docker',
      'base-image': BASE_IMAGE,
      'paired-deploy': 'once',
      profiles: 'minimal',
      runs: '6',
      'max-pairs': '14',
      requests: '5',
      'warmup-requests': '3',
      'doc-bytes': '1000',
      'alert-threshold': '2.5%',
      'out-dir': tmp()
    })
    const paired = await runPairedSuite(inputs, { log, suiteId, baseSuiteId })
    // With requests of 10 × 1000 B `path` is a few ms, so +1 ms is tens of percent; beside other
    // test suites on two cores 14 pairs may still not tell (2 of 11 runs here): the answer is
    // then inconclusive, never "no change" or faster, and Router2's own time always moved.
    const c = comparePaired(paired, { threshold: 0.025 })
    const [k] = c.cases
    const gate = k.metrics.find(m => m.gating)!
    expect(gate.metric).toBe('path')
    expect({ verdict: gate.verdict, change: gate.change, ci: gate.ci }).toMatchObject({
      verdict: expect.stringMatching(/^(regression|inconclusive)$/)
    })
    expect(k.metrics.find(m => m.metric === 'r2:proc')).toMatchObject({ verdict: 'regression' })
    // Its share of the band's move, or, when that move's own interval holds zero (the share is
    // then unbounded), its move in time with the interval.
    if (gate.verdict === 'regression')
      expect(renderPairedMarkdown(c)).toMatch(
        re`: \`r2:proc\` \(router 2's own time\) \+${SECONDS} \((?:${SHARE}, interval ${SHARE} … ${SHARE}|interval [^)]+)\)`
      )
    expect(await leftovers(suiteId)).toBe(0)
    expect(await leftovers(baseSuiteId)).toBe(0)
  })
})
