/**
 * Integration: the swarm engine on two nodes: scripts/swarm-setup.sh --worker adds a second node
 * on this machine, a dockerd in its own network namespace joined over a veth pair, so a hop
 * crosses a real (virtual) link and VXLAN.
 *
 * @side-by-side: where Swarm placed each service and what crossed between the nodes; no figure.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { ensureServiceImage } from '../src/engine/docker/image'
import { createSwarmEngine } from '../src/engine/swarm/engine'
import { ServiceFailure } from '../src/engine/types'
import { parseTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { daemonSuite, describeDocker, leftovers, TEST_ENGINE } from './helpers/docker'
import { expectStorableResult } from './helpers/result'
import { imageOnWorker, useSwarm, WORKER } from './helpers/swarm'
import { tmp } from './helpers/tmp'

const root = path.join(__dirname, '..')

useSwarm({ worker: true })

describeDocker('swarm engine on two nodes (a second dockerd in a network namespace)', () => {
  /** Case 1 with Router2 pinned to the worker, so r1->r2 and r2->f cross the veth pair. */
  function pinnedCase1(constraint = `node.hostname==${WORKER}`) {
    const file = path.join(root, 'topologies', 'case1.yml')
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(
        'model: BaseRouter\n    in: { socket: PULL_CONNECT, peer: Router1 }',
        `model: BaseRouter\n    deploy: { placement: { constraints: ['${constraint}'] } }\n    in: { socket: PULL_CONNECT, peer: Router1 }`
      )
    const dir = tmp()
    fs.writeFileSync(path.join(dir, 'pinned.yml'), text)
    expect(parseTopology(text, 'pinned.yml').services[2].deploy).toBeDefined()
    return path.join(dir, 'pinned.yml')
  }

  it('places Router2 on the worker, records the nodes, and the hop crosses to it', async () => {
    const runId = randomUUID()
    const result = await daemonSuite(
      'swarm',
      { topology: pinnedCase1(), docs: '40', runs: '2' },
      runId
    )
    const nodes = Object.fromEntries(result.cases[0].services.map(s => [s.name, s.nodes]))
    expect(nodes.Router2).toEqual([WORKER])
    expect(nodes.Frontend).not.toEqual([WORKER])
    expect(result.cases[0].best['r1->r2:send']).toBeGreaterThan(0)
    expect(await leftovers(runId)).toBe(0)
  })

  /**
   * The traced chain of five with relay3 and relay4 pinned to the worker and the others to the
   * manager: spans come to the receiver from both nodes, and two calls cross between them.
   */
  function tracedAcrossNodes(): string {
    const shipped = path.join(root, 'topologies', 'examples', 'http', 'chain-otlp.yml')
    const dir = tmp()
    const text = fs
      .readFileSync(shipped, 'utf8')
      .replace(/context: \.\.\/\.\.\/\.\.\/examples/g, `context: ${path.join(root, 'examples')}`)
      .replace(/^ {2}- name: (relay\d)\n/gm, (line, name: string) => {
        const node = ['relay3', 'relay4'].includes(name)
          ? `node.hostname==${WORKER}`
          : 'node.role==manager'
        return `${line}    deploy: { placement: { constraints: ['${node}'] } }\n`
      })
    fs.writeFileSync(path.join(dir, 'chain-otlp-2nodes.yml'), text)
    return path.join(dir, 'chain-otlp-2nodes.yml')
  }

  it('traces a chain across both nodes: every request traced, every hop from spans', async () => {
    const file = tracedAcrossNodes()
    const topology = parseTopology(fs.readFileSync(file, 'utf8'), file) as HttpTopology
    // Built here, then loaded into the worker's daemon, as a user ships an image to every node.
    await imageOnWorker(
      await ensureServiceImage(new Docker(), topology.services[0], () => undefined)
    )
    const runId = randomUUID()
    const result = await daemonSuite(
      'swarm',
      { topology: file, runs: '2', requests: '20', 'warmup-requests': '20', profiles: 'minimal' },
      runId
    )
    expectStorableResult(result)
    const [c] = result.cases
    const nodes = Object.fromEntries(c.services.map(s => [s.name, s.nodes]))
    expect(nodes).toMatchObject({ relay3: [WORKER], relay4: [WORKER] })
    expect(nodes.relay2).not.toEqual([WORKER])
    // Five services' self times and four calls, two of them between the nodes.
    const hops = c.metrics.filter(m => m.startsWith('hop:'))
    expect(hops).toEqual(
      expect.arrayContaining(['hop:relay2->relay3', 'hop:relay3', 'hop:relay4->relay5'])
    )
    expect(hops).toHaveLength(9)
    for (const name of ['relay1', 'relay2', 'relay3', 'relay4', 'relay5'])
      expect(c.best[`hop:${name}`]).toBeGreaterThan(0)
    expect(await leftovers(runId)).toBe(0)
  })

  it('fails naming the node that lacks the image', async () => {
    const docker = new Docker()
    const image = (
      await docker.listImages({
        filters: JSON.stringify({ reference: ['gnes-latency-bench/gnes'] })
      })
    )[0].RepoTags![0]
    const onlyHere = { repo: 'gnes-latency-bench/gnes', tag: `manager-only-${Date.now()}` }
    await docker.getImage(image).tag(onlyHere)
    const ref = `${onlyHere.repo}:${onlyHere.tag}`
    const engine = createSwarmEngine({ ...TEST_ENGINE, image: ref })
    try {
      await engine.prepare()
      const topology = parseTopology(fs.readFileSync(pinnedCase1(), 'utf8'), 'pinned.yml')
      const error = await engine
        .start(topology, { logDir: tmp(), readyTimeoutMs: 90_000 })
        .catch(e => e)
      expect(error).toBeInstanceOf(ServiceFailure)
      expect(error.message).toMatch(
        new RegExp(`^service Router\\d-0 could not start on node ${WORKER}: No such image: ${ref}`)
      )
    } finally {
      await engine.shutdown()
      await docker
        .getImage(ref)
        .remove()
        .catch(() => undefined)
    }
    expect(await leftovers(engine.runId)).toBe(0)
  })
})
