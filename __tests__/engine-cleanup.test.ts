/**
 * The post step's cleanup after the Docker-based engines, against an Engine API stand-in (a local
 * HTTP server holding labelled objects, as a Swarm manager lists and removes them): what a run's
 * ids label goes, every kind of object a Swarm run makes included, and nothing else.
 */
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { cleanUpRun } from '../src/engine/cleanup'
import { LABEL } from '../src/engine/docker'
import type { Log } from '../src/log'

type Kind = 'services' | 'configs' | 'secrets' | 'networks' | 'containers'

interface Stored {
  kind: Kind
  id: string
  labels: Record<string, string>
}

/** Objects of each kind labelled with `runId`, as the engines label them. */
const ofRun = (runId: string): Stored[] =>
  (['services', 'configs', 'secrets', 'networks', 'containers'] as const).map(kind => ({
    kind,
    id: `${kind}-${runId}`,
    labels: { [LABEL.tool]: 'true', [LABEL.runId]: runId }
  }))

/** Lists by label filter and removes by id; a manager, so Swarm's objects are there too. */
function daemon(objects: Stored[]): http.Server {
  const listed = (kind: Kind, url: URL) => {
    const wanted: string[] = JSON.parse(url.searchParams.get('filters') ?? '{}').label ?? []
    return objects
      .filter(o => o.kind === kind)
      .filter(o => wanted.every(l => `${l.split('=')[0]}=${o.labels[l.split('=')[0]]}` === l))
      .map(o => ({ ID: o.id, Id: o.id, Created: 0, CreatedAt: new Date(0).toISOString() }))
  }
  return http.createServer((req, res) => {
    const url = new URL(req.url!.replace(/^\/v[\d.]+/, ''), 'http://daemon')
    const [, first, second] = url.pathname.split('/')
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (first === '_ping') return res.end('OK')
    if (first === 'info') return json({ Swarm: { ControlAvailable: true } })
    if (first === 'tasks') return json([])
    if (req.method === 'DELETE') {
      const at = objects.findIndex(o => o.kind === first && o.id === second)
      if (at >= 0) objects.splice(at, 1)
      res.writeHead(at >= 0 ? 204 : 404)
      return res.end()
    }
    if (first === 'containers' && second === 'json') return json(listed('containers', url))
    return json(listed(first as Kind, url))
  })
}

test('a Swarm run: its services, configs, secrets, networks and containers go, by each run id it kept', async () => {
  const objects = [...ofRun('run-a'), ...ofRun('run-b'), ...ofRun('run-c')]
  const server = daemon(objects)
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const host = process.env.DOCKER_HOST
  process.env.DOCKER_HOST = `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`
  const lines: string[] = []
  const log: Log = {
    info: m => lines.push(m),
    warn: m => lines.push(`warning: ${m}`),
    group: (_n, w) => w()
  }
  try {
    await cleanUpRun({ engine: 'swarm', runIds: ['run-a', 'run-b'] }, log)
  } finally {
    if (host === undefined) delete process.env.DOCKER_HOST
    else process.env.DOCKER_HOST = host
    server.close()
  }
  expect(objects).toEqual(ofRun('run-c'))
  expect(lines).toEqual(
    ['run-a', 'run-b'].map(
      id =>
        `cleanup of run ${id}: removed 1 containers and 1 networks, 1 services, 1 configs and 1 secrets`
    )
  )
})
