/**
 * Integration: CPU per request read by the Docker and the local engine (engine/docker/usage.ts,
 * engine/local/usage.ts) for a service that spins about 2 ms of its own thread's CPU per request,
 * against what the test reads itself beside the engine's reader: the container's cgroup file
 * (cpuacct.usage on cgroup v1, cpu.stat on v2), or the process's /proc/<pid>/stat ticks.
 *
 * @side-by-side: the engine's CPU time against the kernel's, read at the same instants; a
 * neighbour's load moves both alike, since each counts only the service's own CPU time.
 */
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import Docker from 'dockerode'
import { createDockerEngine } from '../src/engine/docker'
import { LABEL } from '../src/engine/docker/labels'
import { LocalEngine } from '../src/engine/local/engine'
import type { Deployment, Engine } from '../src/engine/types'
import type { Load, RunResult } from '../src/result/schema'
import { runHttpProfile } from '../src/pipeline/suite/http-profile'
import { loadDriver } from '../src/pipeline/suite/load-driver'
import { parseTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { BASE_IMAGE, describeDocker, TEST_ENGINE } from './helpers/docker'
import { quiet } from './helpers/log'
import { pidsWithEnv } from './helpers/processes'
import { tmp } from './helpers/tmp'

/** Spins 2 ms of its thread's CPU per request (thread_time counts only its own CPU). */
const SERVER = [
  'import http.server, os, time',
  'class H(http.server.BaseHTTPRequestHandler):',
  '    def do_GET(self):',
  '        end = time.thread_time() + 0.002',
  '        while time.thread_time() < end: pass',
  "        self.send_response(200); self.send_header('Content-Length', '2'); self.end_headers()",
  "        self.wfile.write(b'ok')",
  '    def log_message(self, *a): pass',
  "s = http.server.HTTPServer(('0.0.0.0', int(os.environ['PORT'])), H)",
  "print('listening on', flush=True)",
  's.serve_forever()'
].join('\n')

/** One line for the command (a topology refuses control characters): Python's exec of it. */
const ONE_LINE = `exec(${JSON.stringify(SERVER)})`

function topology(): HttpTopology {
  const text = `
id: spin
name: spinning service
kind: http
minimalRate: 50
services:
  - name: spin
    image: ${BASE_IMAGE}
    command: [python3, -c, ${JSON.stringify(ONE_LINE)}]
    environment: { PORT: '\${port}', PYTHONUNBUFFERED: '1' }
    port: 8080
    ready: { log: 'listening on' }
load: { service: spin, path: / }
`
  const t = parseTopology(text, path.join(tmp(), 'spin.yml'))
  if (t.kind !== 'http') throw new Error('not http')
  return t
}

const LOAD: Load = {
  docs: 1,
  batchSize: 1,
  docBytes: 1,
  runs: 3,
  requests: 100,
  warmupRequests: 20
}

/**
 * Runs a minimal-load profile with the test's own reading (`read`, CPU seconds so far) taken
 * just before each of the engine's; returns the measured runs and the test's readings.
 */
async function measure(
  dep: Deployment,
  t: HttpTopology,
  read: () => number
): Promise<{ runs: RunResult[]; own: number[] }> {
  const own: number[] = []
  const watched = {
    usage: () => {
      own.push(read())
      return dep.usage()
    }
  }
  const outcome = await runHttpProfile(
    watched,
    loadDriver(dep, t),
    { source: t.hops, traces: null },
    { kind: 'minimal', rate: 50 },
    LOAD,
    quiet
  )
  return { runs: outcome.runs.filter(r => !r.warmup), own }
}

/** The engine's CPU seconds over all windows against the test's over the same span. */
function expectAgreement(runs: RunResult[], own: number[]): void {
  expect(runs).toHaveLength(LOAD.runs)
  const engine = runs.reduce((n, r) => n + r.samples['cpu:spin'][0] * r.usage!.requests, 0)
  const test = own[own.length - 1] - own[0]
  // 300 requests of 2 ms spun each: well above the readers' resolution.
  expect(test).toBeGreaterThan(0.5)
  expect(Math.abs(engine / test - 1)).toBeLessThan(0.1)
  for (const r of runs) {
    expect(r.samples['cpu:total']).toEqual(r.samples['cpu:spin'])
    expect(r.samples['mem:spin'][0]).toBeGreaterThan(1)
  }
}

async function withDeployment(
  engine: Engine,
  work: (dep: Deployment, t: HttpTopology) => Promise<void>
): Promise<void> {
  const t = topology()
  try {
    await engine.prepare(false)
    const dep = await engine.start(t, { logDir: tmp(), readyTimeoutMs: 60_000 })
    try {
      await work(dep, t)
    } finally {
      await dep.stop()
    }
  } finally {
    await engine.shutdown()
  }
}

/** The container's CPU seconds from its cgroup's own file, v1 or v2. */
function cgroupCpuSeconds(id: string): number {
  const v1 = `/sys/fs/cgroup/cpuacct/docker/${id}/cpuacct.usage`
  if (fs.existsSync(v1)) return Number(fs.readFileSync(v1, 'utf8')) / 1e9
  const v2 = `/sys/fs/cgroup/system.slice/docker-${id}.scope/cpu.stat`
  const usec = /^usage_usec (\d+)$/m.exec(fs.readFileSync(v2, 'utf8'))?.[1]
  return Number(usec) / 1e6
}

describeDocker('CPU per request on the Docker engine', () => {
  it('agrees within 10 % with the cgroup file the test reads', async () => {
    const engine = createDockerEngine(TEST_ENGINE)
    await withDeployment(engine, async (dep, t) => {
      const [c] = await new Docker().listContainers({
        filters: JSON.stringify({ label: [`${LABEL.runId}=${engine.runId}`] })
      })
      const { runs, own } = await measure(dep, t, () => cgroupCpuSeconds(c.Id))
      expectAgreement(runs, own)
      expect(runs[0].usage!.services.spin).toMatchObject({ instances: 1 })
    })
  })
})

/** The process's utime + stime from /proc/<pid>/stat, in seconds (ticks of 1/100 s). */
function procCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

describe('CPU per request on the local engine', () => {
  it('agrees within 10 % with /proc/<pid>/stat read by the test', async () => {
    const runId = randomUUID()
    await withDeployment(
      new LocalEngine({ version: '0.0.47' }, runId, () => undefined),
      async (dep, t) => {
        const [pid] = pidsWithEnv('GNES_BENCH_SUITE', runId)
        const { runs, own } = await measure(dep, t, () => procCpuSeconds(pid))
        expectAgreement(runs, own)
        expect(runs[0].usage!.services.spin).toMatchObject({ memory: 'process-peak' })
      }
    )
  })
})
