/**
 * Integration: real GNES processes on loopback through the local engine (the GNES venv is
 * provisioned on first use and cached). Small loads keep it quick; case 2 still blocks 1 s per
 * request at Router2.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import { LocalEngine } from '../src/engine/local/engine'
import { checkSupportedVersion } from '../src/config/gnes-version'
import { ServiceFailure } from '../src/engine/types'
import { resolveTopology } from '../src/topology/load'
import type { Log } from '../src/log'
import { runSuite } from '../src/pipeline'
import { buildCli } from './helpers/bundle'
import { engineConformance } from './helpers/conformance'
import { pidsWithEnv, sleep, survivors } from './helpers/processes'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

/** A log that records lines and, when services come up, how many suite processes are alive. */
function probeLog(suiteId: string) {
  const lines: string[] = []
  const aliveAtReady: number[] = []
  const log: Log = {
    info: m => {
      lines.push(m)
      if (m.startsWith('services ready'))
        aliveAtReady.push(pidsWithEnv('GNES_BENCH_SUITE', suiteId).length)
    },
    warn: m => lines.push(`warning: ${m}`),
    group: async (name, work) => {
      lines.push(`== ${name}`)
      return work()
    }
  }
  return { log, lines, aliveAtReady }
}

engineConformance('local', {
  make: () => new LocalEngine({ version: '0.0.47' }, randomUUID(), () => undefined),
  leftovers: async runId => (await survivors('GNES_BENCH_SUITE', runId, 2000)).length
})

describe('local engine with real GNES 0.0.47', () => {
  it('runs case 1 and case 2, shows case 2 queueing at the blocking router, and leaves no process', async () => {
    const suiteId = randomUUID()
    const probe = probeLog(suiteId)
    const inputs = parseInputs({
      cases: '1,2',
      docs: '40',
      runs: '2',
      'warmup-requests': '4',
      profiles: 'burst',
      engine: 'local',
      'out-dir': tmp()
    })
    const result = await runSuite(inputs, { log: probe.log, suiteId })

    expectStorableResult(result)
    expect(result.id).toBe(suiteId)
    expect(result.meta).toMatchObject({
      engine: 'local',
      gnes: { version: '0.0.47' },
      load: { docs: 40, batchSize: 10, runs: 2, warmupRequests: 4 }
    })
    expect(result.cases.map(c => c.id)).toEqual(['1', '2'])
    for (const c of result.cases) {
      expect(c.runs.map(r => r.warmup)).toEqual([true, false, false])
      for (const r of c.runs) expect(r.requests).toBe(4)
      expect(c.best.roundtrip).toBe(
        Math.min(c.runs[1].summaries.roundtrip.mean, c.runs[2].summaries.roundtrip.mean)
      )
    }
    const [case1, case2] = result.cases
    expect(case1.best.roundtrip).toBeLessThan(1)
    // Router2 holds each request 1 s; the next one waits in its queue, so r1->r2 grows by ~1 s per request.
    for (const run of case2.runs) {
      const waits = run.samples['r1->r2:send']
      for (let k = 1; k < waits.length; k++) expect(waits[k] - waits[k - 1]).toBeGreaterThan(0.7)
      for (const proc of run.samples['r2:proc']) expect(proc).toBeGreaterThan(0.99)
    }
    expect(case2.best['r1->r2:send']).toBeGreaterThan(1)

    // 3 services per case were alive when each case became ready, and none survive the suite.
    expect(probe.aliveAtReady).toEqual([3, 3])
    expect(await survivors('GNES_BENCH_SUITE', suiteId, 2000)).toEqual([])
  })

  it('fails fast with the name and last log lines of a service that dies, and cleans up', async () => {
    const dir = tmp()
    const file = path.join(dir, 'broken.yml')
    fs.writeFileSync(
      file,
      fs
        .readFileSync(path.join(__dirname, '..', 'topologies', 'case1.yml'), 'utf8')
        .replace(
          'model: BaseRouter\n    in: { socket: PULL_CONNECT, peer: Router1 }',
          'model: BaseRouter\n    args: [--no_such_flag]\n    in: { socket: PULL_CONNECT, peer: Router1 }'
        )
    )
    const suiteId = randomUUID()
    const inputs = parseInputs({ topology: file, docs: '20', engine: 'local', 'out-dir': dir })
    const started = Date.now()
    const error = await runSuite(inputs, { log: probeLog(suiteId).log, suiteId }).catch(e => e)
    expect(error).toBeInstanceOf(ServiceFailure)
    expect(error.message).toMatch(/^service Router2-0 exited \(code \d+\); last log lines:\n/)
    expect(error.message).toContain('unrecognized arguments: --no_such_flag')
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(await survivors('GNES_BENCH_SUITE', suiteId, 2000)).toEqual([])
    expect(fs.existsSync(path.join(dir, 'result.json'))).toBe(false)
  })

  it('names the services that never became ready, with their logs, and stops them', async () => {
    const suiteId = randomUUID()
    const engine = new LocalEngine({ version: '0.0.47' }, suiteId, () => undefined)
    await engine.prepare()
    const { topology } = resolveTopology('1')
    // GNES needs a few hundred ms to start (under 300 ms on a fast machine); 30 ms nobody meets.
    const error = await engine.start(topology, { logDir: tmp(), readyTimeoutMs: 30 }).catch(e => e)
    expect(error).toBeInstanceOf(ServiceFailure)
    expect(error.message).toMatch(
      /^service Frontend-0, Router1-0, Router2-0 did not become ready within 0.03 s; last log lines:\n\[Frontend-0\]/
    )
    expect(await survivors('GNES_BENCH_SUITE', suiteId, 2000)).toEqual([])
  })

  it('refuses GNES older than 0.0.42 before installing anything', () => {
    // The input names the supported list; the engines keep their own check for detected versions.
    expect(() =>
      parseInputs({ cases: '1', 'gnes-version': '0.0.41', engine: 'local', 'out-dir': tmp() })
    ).toThrow(
      "input 'gnes-version' = '0.0.41': gnes-version must be a supported GNES release: 0.0.42, 0.0.43, 0.0.44, 0.0.45, 0.0.46, 0.0.47"
    )
    expect(() => checkSupportedVersion('0.0.41')).toThrow(
      /input 'gnes-version' = '0.0.41': GNES 0.0.42 is the first with --dump_route/
    )
  })
})

describe('interrupting the CLI', () => {
  let cli: string
  beforeAll(async () => {
    cli = await buildCli()
  })

  /** Starts `run` on case 2 and resolves once its services are up and the client is sending. */
  async function startSuite(marker: string) {
    const child = spawn(
      process.execPath,
      [cli, 'run', '--cases', '2', '--docs', '100', '--engine', 'local', '--out', tmp()],
      {
        env: { ...process.env, TEST_SUITE_MARKER: marker },
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    let output = ''
    child.stdout.on('data', d => (output += d))
    child.stderr.on('data', d => (output += d))
    const exited = new Promise<number | null>(r =>
      child.on('exit', (code, signal) => r(code ?? (signal ? -1 : null)))
    )
    const until = Date.now() + 240_000
    while (!output.includes('services ready') && Date.now() < until) await sleep(100)
    expect(output).toContain('services ready')
    await sleep(1500)
    // Frontend, two routers and the load client.
    expect(pidsWithEnv('TEST_SUITE_MARKER', marker).length).toBeGreaterThanOrEqual(5)
    return { child, exited, output: () => output }
  }

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143]
  ] as const)('%s stops every service and the client, and exits %d', async (signal, code) => {
    const marker = randomUUID()
    const suite = await startSuite(marker)
    suite.child.kill(signal)
    expect(await suite.exited).toBe(code)
    expect(suite.output()).toContain(`received ${signal}: stopping every service of this suite`)
    expect(pidsWithEnv('TEST_SUITE_MARKER', marker)).toEqual([])
  })

  it('SIGTERM while the largest topology the bounds allow starts (64 instances) exits within 5 s, leaving no process and no zombie', async () => {
    // Frontend, four groups of routers pulling from it (16 + 16 + 16 + 14 replicas), and one
    // router they all push to: 64 instances, the bound.
    const group = (name: string, replicas: number) =>
      `  - { name: ${name}, role: router, model: BaseRouter, replicas: ${replicas}, ` +
      'in: { socket: PULL_CONNECT, peer: Frontend }, out: { socket: PUSH_CONNECT, peer: Join } }\n'
    const dir = tmp()
    const file = path.join(dir, 'largest.yml')
    fs.writeFileSync(
      file,
      'id: largest\nname: largest\nservices:\n  - { name: Frontend, role: frontend }\n' +
        group('A', 16) +
        group('B', 16) +
        group('C', 16) +
        group('D', 14) +
        '  - { name: Join, role: router, model: BaseRouter, ' +
        'in: { socket: PULL_BIND }, out: { socket: PUSH_CONNECT, peer: Frontend } }\n'
    )
    const zombies = () =>
      fs
        .readdirSync('/proc')
        .filter(d => /^\d+$/.test(d))
        .filter(pid => {
          try {
            return /\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))
          } catch {
            return false
          }
        }).length
    const before = zombies()
    const marker = randomUUID()
    const child = spawn(
      process.execPath,
      [cli, 'run', '--topology', file, '--engine', 'local', '--out', path.join(dir, 'out')],
      { env: { ...process.env, TEST_SUITE_MARKER: marker }, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let output = ''
    child.stdout.on('data', d => (output += d))
    child.stderr.on('data', d => (output += d))
    const exited = new Promise<number | null>(r => child.on('exit', code => r(code)))
    // In the middle of the start: some services spawned, not all of them ready.
    const until = Date.now() + 240_000
    while (pidsWithEnv('TEST_SUITE_MARKER', marker).length < 30 && Date.now() < until)
      await sleep(50)
    expect(output).not.toContain('services ready')
    const sent = Date.now()
    child.kill('SIGTERM')
    expect(await exited).toBe(143)
    expect(Date.now() - sent).toBeLessThan(5000)
    expect(await survivors('TEST_SUITE_MARKER', marker, 1000)).toEqual([])
    expect(zombies()).toBeLessThanOrEqual(before)
  })

  it('SIGKILL of the CLI still takes the services down (parent-death signal)', async () => {
    const marker = randomUUID()
    const suite = await startSuite(marker)
    suite.child.kill('SIGKILL')
    await suite.exited
    expect(await survivors('TEST_SUITE_MARKER', marker, 5000)).toEqual([])
  })
})
