/**
 * Integration: the shipped Compose examples (examples/compose/), files a team runs with
 * `docker compose up`, read as they are and measured on Docker by the HTTP driver at small rates:
 * health-gated start, replicas behind Caddy's DNS-discovered upstreams, CPU and memory limits,
 * interpolation, and per-hop figures.
 *
 * @side-by-side: that each example starts and answers; no figure but a nonzero latency.
 */
import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import { runSuite } from '../src/pipeline'
import { describeDocker, leftovers } from './helpers/docker'
import { quiet } from './helpers/log'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

const compose = (name: string) =>
  path.join(__dirname, '..', 'examples', 'compose', name, 'compose.yaml')

function suite(topology: string, id: string) {
  const inputs = parseInputs({
    engine: 'docker',
    topology,
    profiles: 'minimal',
    runs: '2',
    requests: '10',
    'warmup-requests': '10',
    'out-dir': tmp()
  })
  return runSuite(inputs, { suiteId: id, log: quiet })
}

describeDocker('the Compose examples on Docker, as they are', () => {
  test('chain of 5: health-checked relays, every hop reported', async () => {
    const id = randomUUID()
    const result = await suite(compose('chain5'), id)
    expectStorableResult(result)
    const [c] = result.cases
    expect(c).toMatchObject({ id: 'chain5-compose', kind: 'http', headline: 'latency' })
    expect(c.metrics.filter(m => m.startsWith('hop:'))).toEqual(
      ['relay1', 'relay2', 'relay3', 'relay4', 'relay5'].map(h => `hop:${h}`)
    )
    expect(c.best.latency).toBeGreaterThan(0)
    expect(await leftovers(id)).toBe(0)
  })

  test('tree: NODES=4 limited replicas behind Caddy, which starts once they are healthy', async () => {
    const id = randomUUID()
    process.env.NODES = '4'
    try {
      const result = await suite(compose('tree'), id)
      expectStorableResult(result)
      const [c] = result.cases
      expect(c).toMatchObject({ id: 'tree-4-compose', kind: 'http' })
      expect(c.metrics).toContain('hop:node')
    } finally {
      delete process.env.NODES
    }
    expect(await leftovers(id)).toBe(0)
  })
})
