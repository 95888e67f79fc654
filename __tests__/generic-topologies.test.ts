/**
 * Integration: the shipped generic (kind: http) examples as real services — Python relays and
 * Debian's Caddy — on the local engine (processes on loopback) and on Docker (containers with
 * limits), measured by the HTTP driver at small rates.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as http from 'node:http'
import * as path from 'node:path'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import { createDockerEngine, LABEL } from '../src/engine/docker'
import { ensureServiceImage, ensureServiceImages } from '../src/engine/docker/image'
import { LocalEngine } from '../src/engine/local/engine'
import { ServiceFailure } from '../src/engine/types'
import { runSuite } from '../src/pipeline'
import { parseTopology, resolveTopology } from '../src/topology/load'
import { describeDocker, leftovers, TEST_ENGINE } from './helpers/docker'
import { pidsWithEnv, survivors } from './helpers/processes'
import { expectStorableResult, usageMetrics } from './helpers/result'
import { quiet } from './helpers/log'
import { tmp } from './helpers/tmp'
import { agreementLine, expectSelfTimesAgree } from './helpers/trace-agreement'

const EXAMPLES = path.join(__dirname, '..', 'topologies', 'examples', 'http')
const example = (name: string) => path.join(EXAMPLES, `${name}.yml`)

/** A small suite of one example; every figure real. */
function suite(engine: 'local' | 'docker', topology: string, raw: Partial<RawInputs>, id: string) {
  const inputs = parseInputs({
    engine,
    topology,
    runs: '2',
    requests: '10',
    'warmup-requests': '10',
    'out-dir': tmp(),
    ...raw
  })
  return runSuite(inputs, { suiteId: id, log: quiet })
}

/** GET through the load's entry, `n` times; the `instance` each answer names. */
async function instancesAnswering(host: string, port: number, n: number): Promise<string[]> {
  const seen: string[] = []
  for (let i = 0; i < n; i++) {
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ host, port, path: '/', agent: false }, res => {
          let text = ''
          res.on('data', d => (text += d))
          res.on('end', () => resolve(text))
        })
        .on('error', reject)
    })
    seen.push((JSON.parse(body) as { instance: string }).instance)
  }
  return seen
}

describe('generic topologies on the local engine (real relays and Caddy on loopback)', () => {
  test('chain of 5: minimal load and a burst, every relay reporting its hop', async () => {
    const id = randomUUID()
    const result = await suite('local', example('chain5'), { profiles: 'minimal,burst' }, id)
    expectStorableResult(result)
    expect(result.meta.gnes).toBeNull()
    const [minimal, burst] = result.cases
    expect(minimal).toMatchObject({ id: 'chain5', kind: 'http', headline: 'latency' })
    expect(minimal.profile).toEqual({ kind: 'minimal', rate: 20 })
    const relays = ['relay1', 'relay2', 'relay3', 'relay4', 'relay5']
    const hops = relays.map(h => `hop:${h}`)
    // Each relay's CPU per request and peak memory, read from its process, beside the latency.
    const usage = usageMetrics(relays)
    expect(minimal.metrics).toEqual(['latency', 'latency:sent', 'c:lag', ...hops, ...usage])
    expect(burst.metrics).toEqual(['roundtrip', ...hops, ...usage])
    expect(minimal.services.map(s => [s.name, s.role, s.model])).toContainEqual([
      'relay1',
      'container',
      'gnes-latency-bench/example-relay:1'
    ])
    // Each hop took some time, less than the whole, and the whole is at least their sum.
    const hopSum = hops.reduce((a, h) => a + minimal.best[h], 0)
    for (const h of hops) expect(minimal.best[h]).toBeGreaterThan(0)
    expect(minimal.best['latency:sent']).toBeGreaterThan(hopSum)
    expect(minimal.best.latency).toBeGreaterThanOrEqual(minimal.best['latency:sent'])
    for (const run of minimal.runs.filter(r => !r.warmup)) {
      expect(run.summaries.latency.n).toBe(10)
      expect(run.rate).toBe(20)
    }
    expect(burst.runs.filter(r => !r.warmup)[0].summaries.roundtrip.n).toBe(50)
    expect(await survivors('GNES_BENCH_SUITE', id, 3000)).toEqual([])
  })

  test('tree behind Caddy: the balancer alternates over the replicas; a sweep finds throughput', async () => {
    const engine = new LocalEngine({ version: '0.0.47' }, randomUUID(), () => undefined)
    await engine.prepare(false)
    const dep = await engine.start(resolveTopology(example('tree')).topology, {
      logDir: tmp(),
      readyTimeoutMs: 30_000
    })
    try {
      expect(pidsWithEnv('GNES_BENCH_SUITE', engine.runId)).toHaveLength(3)
      const seen = await instancesAnswering(dep.frontend.host, dep.frontend.port, 4)
      expect(new Set(seen).size).toBe(2)
      expect(seen[0]).not.toBe(seen[1])
    } finally {
      await engine.shutdown()
    }
    const result = await suite(
      'local',
      example('tree'),
      { profiles: 'sweep', 'sweep-rates': '10,40', 'sweep-step-seconds': '1' },
      randomUUID()
    )
    const { sweep } = result.cases[0]
    expect(sweep!.points.map(p => p.offered)).toEqual([10, 40])
    expect(sweep!.points.every(p => p.errors === 0 && p.latency.n === p.requests)).toBe(true)
    expect(sweep!.maxThroughput).toBeGreaterThan(0.95 * 10)
  })

  test('a service that exits fails the start, naming it with its last log lines', async () => {
    const text = fs
      .readFileSync(example('single'), 'utf8')
      .replace(
        'command: [python3, relay.py]',
        'command: [python3, -c, \'import sys; print("bad config"); sys.exit(3)\']'
      )
    const topology = parseTopology(text, example('single'))
    const engine = new LocalEngine({ version: '0.0.47' }, randomUUID(), () => undefined)
    await engine.prepare(false)
    const started = engine.start(topology, { logDir: tmp(), readyTimeoutMs: 20_000 })
    await expect(started).rejects.toThrow(ServiceFailure)
    await expect(started).rejects.toThrow(
      /service relay-0 exited \(code 3\); last log lines:\nbad config/
    )
    await engine.shutdown()
    expect(pidsWithEnv('GNES_BENCH_SUITE', engine.runId)).toEqual([])
  })

  test('every request failing fails the profile with the count and the first error', async () => {
    const text = fs
      .readFileSync(example('single'), 'utf8')
      .replace('status: [200]', 'status: [201]')
    const file = path.join(tmp(), 'single-201.yml')
    fs.writeFileSync(
      file,
      text.replace(/\.\.\/\.\.\/\.\.\/examples/g, path.join(__dirname, '..', 'examples'))
    )
    await expect(suite('local', file, { profiles: 'minimal' }, randomUUID())).rejects.toThrow(
      /30 of 30 requests to POST http:\/\/127\.0\.0\.1:\d+\/ failed; the first: unexpected status 200/
    )
  })
})

describeDocker('generic topologies on Docker (containers with limits, no published port)', () => {
  test('tree behind Caddy: limits on every node, round robin, and nothing left after', async () => {
    const id = randomUUID()
    const engine = createDockerEngine({ ...TEST_ENGINE, runId: id })
    expect(await engine.prepare(false)).toBeNull()
    const dep = await engine.start(resolveTopology(example('tree')).topology, {
      logDir: tmp(),
      readyTimeoutMs: 60_000
    })
    try {
      const docker = new Docker()
      const filters = JSON.stringify({ label: [`${LABEL.runId}=${id}`, `${LABEL.service}=node`] })
      const nodes = await docker.listContainers({ filters })
      expect(nodes).toHaveLength(2)
      for (const n of nodes) {
        const info = await docker.getContainer(n.Id).inspect()
        expect(info.HostConfig).toMatchObject({ NanoCpus: 1e8, Memory: 64 * 2 ** 20 })
      }
      const seen = await instancesAnswering(dep.frontend.host, dep.frontend.port, 4)
      expect(new Set(seen).size).toBe(2)
    } finally {
      await engine.shutdown()
    }
    expect(await leftovers(id)).toBe(0)
  })

  test('images are tagged by their context’s content: built once, rebuilt when it changes, prepared once per source', async () => {
    const docker = new Docker()
    const relay = path.join(__dirname, '..', 'examples', 'services', 'relay')
    const copy = tmp()
    fs.cpSync(relay, copy, { recursive: true })
    const service = (context: string) => ({
      name: 'relay',
      image: 'gnes-latency-bench/example-relay:1',
      build: { context, dockerfile: 'Dockerfile' }
    })
    const lines: string[] = []
    const log = (l: string) => lines.push(l)
    const first = await ensureServiceImage(docker, service(relay), log)
    expect(first).toMatch(/^gnes-latency-bench\/service:[0-9a-f]{16}$/)
    lines.length = 0
    // The same files elsewhere are the same image: found, not built.
    expect(await ensureServiceImage(docker, service(copy), log)).toBe(first)
    expect(lines).toEqual([
      expect.stringMatching(/^build context .*: \d+ file\(s\), [\d.]+ k?B \(no \.dockerignore\)$/),
      expect.stringMatching(/^using gnes-latency-bench\/service:[0-9a-f]{16} for /)
    ])
    // Services of one image and context (a chain's relays) are prepared once.
    lines.length = 0
    const relays = ['relay1', 'relay2', 'relay3'].map(name => ({ ...service(relay), name }))
    const images = await ensureServiceImages(docker, relays, log)
    expect([...images]).toEqual(relays.map(r => [r.name, first]))
    expect(lines.filter(l => l.startsWith('using '))).toHaveLength(1)
    fs.appendFileSync(path.join(copy, 'relay.py'), '\n# changed\n')
    const changed = await ensureServiceImage(docker, service(copy), log)
    expect(changed).not.toBe(first)
    await docker.getImage(changed).remove()
  })

  test('chain of 5: a minimal-load figure with every hop, from images built from their context', async () => {
    const id = randomUUID()
    const result = await suite('docker', example('chain5'), { profiles: 'minimal' }, id)
    expectStorableResult(result)
    const [c] = result.cases
    expect(c.metrics.filter(m => m.startsWith('hop:'))).toHaveLength(5)
    expect(c.best.latency).toBeGreaterThan(0)
    expect(await leftovers(id)).toBe(0)
  })

  test('traced chain of 5: each relay’s self time from its spans is the time it reports itself, across containers', async () => {
    const id = randomUUID()
    const engine = createDockerEngine({ ...TEST_ENGINE, runId: id })
    await engine.prepare(false)
    const dep = await engine.start(resolveTopology(example('chain-otlp')).topology, {
      logDir: tmp(),
      readyTimeoutMs: 60_000
    })
    try {
      const agreements = await expectSelfTimesAgree(dep)
      console.log(
        `docker: self time from spans/own figure (spread), ms: ${agreementLine(agreements)}`
      )
    } finally {
      await engine.shutdown()
    }
    expect(await leftovers(id)).toBe(0)
  })

  test('traced gRPC chain: its image built on node:20-slim, every call traced across containers, hops from spans', async () => {
    const id = randomUUID()
    const result = await suite('docker', example('grpc-chain-otlp'), { profiles: 'minimal' }, id)
    expectStorableResult(result)
    const [c] = result.cases
    const hops = ['grpc1', 'grpc1->grpc2', 'grpc2', 'grpc2->grpc3', 'grpc3']
    expect(c.metrics.filter(m => m.startsWith('hop:'))).toEqual(hops.map(h => `hop:${h}`))
    for (const run of c.runs) {
      const t = run.traces!
      expect([t.traced, t.complete, t.spans]).toEqual([
        run.requests,
        run.requests,
        5 * run.requests
      ])
    }
    expect(c.best.latency).toBeGreaterThan(0)
    expect(await leftovers(id)).toBe(0)
  })
})
