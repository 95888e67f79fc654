/**
 * Integration: the native fields a Compose file compiles to, on the real Docker daemon. Small
 * Python services built offline from python:3.11-slim (or its stand-in): a build with arguments
 * and a target stage, entrypoints over an image whose own fails, a health check that turns
 * healthy after about 1 s with dependents that refuse to run before it, a one-shot job, an alias
 * resolved by another container, and a service without a port.
 *
 * @side-by-side: what the containers were given and did; no figure.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as http from 'node:http'
import * as path from 'node:path'
import { createDockerEngine } from '../src/engine/docker'
import { ServiceFailure } from '../src/engine/types'
import { parseTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { BASE_IMAGE, describeDocker, labelled, TEST_ENGINE } from './helpers/docker'
import { tmp } from './helpers/tmp'

const CONTEXT = path.join(__dirname, 'fixtures', 'compose-engine')

/**
 * The topology; `job` is the one-shot job's exit code, `check` the db's health check command.
 * Failures in the start period do not count, so 3 failed checks in a row after it are unhealthy.
 */
function topology(o: { job: number; check?: string }): HttpTopology {
  const check = o.check ?? "import os, sys; sys.exit(0 if os.path.exists('/tmp/healthy') else 1)"
  const text = `
id: compose-fields
name: compose fields
kind: http
services:
  - name: db
    image: example/compose-fields:1
    build: { context: ${CONTEXT}, args: { GREETING: hello-from-args }, target: app }
    entrypoint: [python3, /services.py]
    command: [db]
    environment: { PORT: '\${port}' }
    port: 7000
    aliases: [database]
    ready:
      healthcheck:
        test: [CMD, python3, -c, ${JSON.stringify(check)}]
        intervalSec: 0.2
        timeoutSec: 5
        retries: 3
        startPeriodSec: ${o.check ? 0 : 10}
  - name: job
    image: example/compose-fields:1
    build: { context: ${CONTEXT}, args: { GREETING: hello-from-args }, target: app }
    entrypoint: [python3, /services.py, job]
    environment: { DB: 'http://database:7000/', EXIT_CODE: '${o.job}' }
    dependsOn: [{ service: db, condition: healthy }]
  - name: worker
    image: ${BASE_IMAGE}
    entrypoint: [sleep]
    command: [infinity]
  - name: api
    image: example/compose-fields:1
    build: { context: ${CONTEXT}, args: { GREETING: hello-from-args }, target: app }
    entrypoint: [python3, /services.py]
    command: [api]
    environment: { PORT: '\${port}', DB: 'http://database:7000/' }
    port: 8080
    dependsOn: [{ service: db, condition: healthy }, { service: job, condition: completed }, worker]
load: { service: api }
`
  const t = parseTopology(text, path.join(tmp(), 'compose-fields.yml'))
  if (t.kind !== 'http') throw new Error('not http')
  return t
}

function get(host: string, port: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    http
      .get({ host, port, path: '/', agent: false, timeout: 10_000 }, res => {
        let text = ''
        res.on('data', d => (text += d))
        res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>))
      })
      .on('error', reject)
  })
}

/** The run's containers by instance name, with their state. */
async function containers(runId: string): Promise<Map<string, string>> {
  const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })
  const list = await new Docker().listContainers({ all: true, filters })
  return new Map(list.map(c => [/-(\w+-\d+)$/.exec(c.Names[0])![1], c.State]))
}

async function inspectInstance(
  runId: string,
  instance: string
): Promise<Docker.ContainerInspectInfo> {
  const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })
  const list = await new Docker().listContainers({ all: true, filters })
  const found = list.find(c => c.Names[0].endsWith(`-${instance}`))!
  return new Docker().getContainer(found.Id).inspect()
}

describeDocker('the Compose-born fields on Docker', () => {
  jest.setTimeout(300_000)

  test('health check, one-shot job, entrypoints, build args and target, alias, no port', async () => {
    const engine = createDockerEngine({ ...TEST_ENGINE, runId: randomUUID() })
    try {
      await engine.prepare(false)
      const logDir = tmp()
      const dep = await engine.start(topology({ job: 0 }), { logDir, readyTimeoutMs: 120_000 })
      // api refuses to run before db is healthy, and reads it through its alias; so does the job.
      const answer = await get(dep.frontend.host, dep.frontend.port)
      expect(answer).toMatchObject({ db: { greeting: 'hello-from-args', healthy: true } })
      expect(fs.readFileSync(path.join(logDir, 'job-0.log'), 'utf8')).toMatch(
        /job saw db \{"greeting": "hello-from-args", "healthy": true/
      )
      const states = await containers(engine.runId)
      expect(Object.fromEntries(states)).toEqual({
        'db-0': 'running',
        'job-0': 'exited',
        'worker-0': 'running',
        'api-0': 'running'
      })
      const inspect = (instance: string) => inspectInstance(engine.runId, instance)
      const db = await inspect('db-0')
      expect(db.Config.Entrypoint).toEqual(['python3', '/services.py'])
      // The engine ran db's check; Docker runs none in it.
      expect(db.Config.Healthcheck).toEqual({ Test: ['NONE'] })
      expect(db.State.Health).toBeUndefined()
      // api started once the job had finished.
      const [job, api] = [await inspect('job-0'), await inspect('api-0')]
      expect(job.State.ExitCode).toBe(0)
      expect(Date.parse(api.State.StartedAt)).toBeGreaterThanOrEqual(
        Date.parse(job.State.FinishedAt)
      )
      // The completed job is no crash: the deployment stands.
      const failed = await Promise.race([
        dep.failed.then(
          () => 'failed',
          () => 'failed'
        ),
        new Promise(r => setTimeout(() => r('standing'), 1000))
      ])
      expect(failed).toBe('standing')
      await dep.stop()
      expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    } finally {
      await engine.shutdown()
    }
  })

  test('a one-shot job that exits 3 fails the start, naming it, its code and its last lines', async () => {
    const engine = createDockerEngine({ ...TEST_ENGINE, runId: randomUUID() })
    try {
      await engine.prepare(false)
      const logDir = tmp()
      const started = engine.start(topology({ job: 3 }), { logDir, readyTimeoutMs: 120_000 })
      await expect(started).rejects.toThrow(ServiceFailure)
      await expect(started).rejects.toThrow(
        /service job-0 exited \(code 3\); last log lines:\njob saw db/
      )
      // api never started; nothing is left behind.
      expect(fs.readdirSync(logDir).sort()).toEqual(['db-0.log', 'job-0.log', 'worker-0.log'])
      expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    } finally {
      await engine.shutdown()
    }
  })

  test('an unhealthy service fails the start with its check’s last output', async () => {
    const engine = createDockerEngine({ ...TEST_ENGINE, runId: randomUUID() })
    try {
      await engine.prepare(false)
      const check = "import sys; print('db says: not yet'); sys.exit(1)"
      const started = engine.start(topology({ job: 0, check }), {
        logDir: tmp(),
        readyTimeoutMs: 120_000
      })
      await expect(started).rejects.toThrow(
        /service db-0 is unhealthy: its health check exited 1: db says: not yet/
      )
      expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    } finally {
      await engine.shutdown()
    }
  })
})
