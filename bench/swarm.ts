/**
 * Figures for the swarm engine (docs/swarm.md): the case-2 blocking figure on local, Docker and
 * Swarm; per-case start-up and teardown on Docker and Swarm; `r1->r2:send` with Router2 on a
 * second node against both routers on one; and the size of the engine layer.
 * Needs a swarm (scripts/swarm-setup.sh; `--worker` for the two-node figure).
 * Usage: npm run bench:swarm -- [--repeats 2] [--docs 100] [--worker glb-worker-1]
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import Docker from 'dockerode'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import { createDockerEngine } from '../src/engine/docker'
import { createSwarmEngine } from '../src/engine/swarm/engine'
import type { Engine } from '../src/engine/types'
import type { Log } from '../src/log'
import { runSuite } from '../src/pipeline'
import { stringify } from 'yaml'
import { resolveTopology } from '../src/topology/load'
import { loadAverage } from './machine'

const BASE_IMAGE = process.env.GLB_BASE_IMAGE || 'python:3.11-slim'
const quiet: Log = { info: () => undefined, warn: () => undefined, group: (_n, work) => work() }
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'glb-bench-swarm-'))
const ms = (t: number) => `${((performance.now() - t) / 1000).toFixed(2)}`

function suiteInputs(raw: Partial<RawInputs>) {
  return parseInputs({ 'base-image': BASE_IMAGE, 'out-dir': tmp(), ...raw })
}

async function blockingFigure(engine: string, docs: string): Promise<number> {
  const result = await runSuite(
    suiteInputs({ engine, cases: '2', docs, runs: '2', 'warmup-requests': '0', profiles: 'burst' }),
    { log: quiet }
  )
  return result.cases[0].best['r1->r2:send']
}

async function overhead(engine: Engine, repeats: number): Promise<string[]> {
  await engine.prepare()
  const rows: string[] = []
  try {
    for (const id of ['1', '2', '3', '4']) {
      const start: string[] = []
      const stop: string[] = []
      for (let k = 0; k < repeats; k++) {
        let t = performance.now()
        const dep = await engine.start(resolveTopology(id).topology, {
          logDir: tmp(),
          readyTimeoutMs: 120_000
        })
        start.push(ms(t))
        t = performance.now()
        await dep.stop()
        stop.push(ms(t))
      }
      rows.push(
        `${engine.kind.padEnd(6)} case ${id}: start-up ${start.join(' ')} s, teardown ${stop.join(' ')} s`
      )
    }
  } finally {
    await engine.shutdown()
  }
  return rows
}

/** Case 1 with Router1 on the manager and Router2 where `constraint` says; r1->r2:send figures. */
async function hop(constraint: string, docs: string): Promise<string> {
  const topology = resolveTopology('1').topology
  const pin = (name: string, c: string) => {
    const s = topology.services.find(x => x.name === name)!
    s.deploy = { placement: { constraints: [c] } }
  }
  pin('Router1', 'node.role==manager')
  pin('Router2', constraint)
  const file = path.join(tmp(), 'pinned.yml')
  fs.writeFileSync(file, stringify(topology))
  const result = await runSuite(
    suiteInputs({
      engine: 'swarm',
      topology: file,
      docs,
      runs: '3',
      'warmup-requests': '2',
      profiles: 'burst'
    }),
    { log: quiet }
  )
  const c = result.cases[0]
  const means = c.runs.filter(r => !r.warmup).map(r => r.summaries['r1->r2:send'].mean)
  const nodes = c.services.map(s => `${s.name}@${s.nodes?.join('+')}`).join(' ')
  return `best ${(c.best['r1->r2:send'] * 1000).toFixed(2)} ms, run means ${means.map(m => (m * 1000).toFixed(2)).join(' ')} ms (${nodes})`
}

function linesOf(files: string[]): number {
  return files.reduce(
    (n, f) => n + fs.readFileSync(path.join('src', 'engine', f), 'utf8').split('\n').length,
    0
  )
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repeats: { type: 'string', default: '2' },
      docs: { type: 'string', default: '100' },
      worker: { type: 'string', default: 'glb-worker-1' }
    }
  })
  const repeats = Number(values.repeats)
  const docs = values.docs!

  console.log('== engine layer (lines)')
  console.log(
    `lifecycle, once: ${linesOf(['lifecycle.ts', 'log-tail.ts', 'deadline.ts', 'types.ts'])} (lifecycle.ts, log-tail.ts, deadline.ts, types.ts)`
  )
  console.log(
    `local driver:  ${linesOf(['local/engine.ts', 'local/process.ts'])} (engine.ts, process.ts; venv/ports provisioning aside)`
  )
  console.log(
    `docker driver: ${linesOf(['docker/engine.ts', 'docker/container.ts'])} (engine.ts, container.ts; image/daemon/cleanup shared with swarm)`
  )
  console.log(
    `swarm driver:  ${linesOf(['swarm/engine.ts', 'swarm/tasks.ts', 'swarm/endpoint.ts'])} (engine.ts, tasks.ts, endpoint.ts)`
  )

  console.log(
    `\n== case 2 blocking figure, best r1->r2:send, ${docs} docs, 2 runs (load ${loadAverage()})`
  )
  const figures: Record<string, number> = {}
  for (const engine of ['local', 'docker', 'swarm']) {
    figures[engine] = await blockingFigure(engine, docs)
    const vs =
      engine === 'local'
        ? ''
        : ` (${(((figures[engine] - figures.local) / figures.local) * 100).toFixed(1)} % vs local)`
    console.log(`${engine.padEnd(6)} ${figures[engine].toFixed(3)} s${vs}`)
  }

  console.log(
    `\n== start-up (ready) and teardown per case, ${repeats} repeats (load ${loadAverage()})`
  )
  const options = { gnesVersion: '0.0.47', baseImage: BASE_IMAGE, log: () => undefined }
  for (const row of await overhead(createDockerEngine(options), repeats)) console.log(row)
  for (const row of await overhead(createSwarmEngine(options), repeats)) console.log(row)

  const nodes = (await new Docker().listNodes()) as { Description?: { Hostname?: string } }[]
  if (!nodes.some(n => n.Description?.Hostname === values.worker)) {
    console.log(
      `\n(no node ${values.worker}: two-node figure skipped; run scripts/swarm-setup.sh --worker)`
    )
    return
  }
  console.log(
    `\n== r1->r2:send, case 1, ${docs} docs of 1 MB, 3 runs + 1 warm-up (load ${loadAverage()})`
  )
  console.log(`Router2 on the manager: ${await hop('node.role==manager', docs)}`)
  console.log(`Router2 on ${values.worker}: ${await hop(`node.hostname==${values.worker}`, docs)}`)
  console.log(`(load ${loadAverage()})`)
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
