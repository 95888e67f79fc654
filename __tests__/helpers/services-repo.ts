import * as fs from 'node:fs'
import * as path from 'node:path'
import { gitIn } from './gnes-repo'
import { PROJECT } from './project'
import { tmp } from './tmp'

/**
 * A repository of services for the runner twin: the relay's code (examples/services/relay) under
 * services/relay and `files` (path → text), on master.
 */
export function servicesRepository(files: Record<string, string>): string {
  const dir = tmp('services-repo-')
  gitIn(dir, 'init', '-q', '-b', 'master')
  const source = path.join(PROJECT, 'examples', 'services', 'relay')
  fs.cpSync(source, path.join(dir, 'services', 'relay'), { recursive: true })
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const relay = (name: string, next: string | null) => `
  ${name}:
    build: ./services/relay
    environment:
      HOP: ${name}
      NEXT: '${next ? `http://${next}:8080/` : ''}'
    expose: ['8080']
    healthcheck:
      test: [CMD, python3, -c, 'import urllib.request as u; u.urlopen("http://127.0.0.1:8080/healthz")']
      interval: 1s
      retries: 30`

/** The Compose file a team runs a chain of three relays with, and README's `x-latency-bench` block. */
export const RELAY_COMPOSE = `services:${relay('relay1', 'relay2')}${relay('relay2', 'relay3')}${relay('relay3', null)}

x-latency-bench:
  name: chain of 3 relays
  load: { service: relay1, method: GET, path: / }
  hops: { json: hops }
  minimalRate: 20
`

const httpRelay = (name: string, next: string | null) => `
  - name: ${name}
    image: octo/${name}:dev
    build: { context: ../services/relay }
    environment: { HOP: ${name}, NEXT: '${next ? `http://\${addr:${next}}/` : ''}', PORT: '\${port}' }
    port: 8080
    ready: { log: 'listening on' }`

/** The same chain as a generic topology file (`kind: http`), at bench/chain.yml. */
export const RELAY_TOPOLOGY = `id: chain
name: chain of 3 relays
kind: http
minimalRate: 20
services:${httpRelay('relay1', 'relay2')}${httpRelay('relay2', 'relay3')}${httpRelay('relay3', null)}
load: { service: relay1, method: GET, path: / }
hops: { json: hops }
`

/** An edit that gives relay2 `ms` more work per request, in whichever of the files is there. */
export const slowerRelay2 =
  (ms: number) =>
  (dir: string): void => {
    const edits: [string, string, string][] = [
      ['docker-compose.yml', '      HOP: relay2\n', `      HOP: relay2\n      WORK_MS: '${ms}'\n`],
      ['bench/chain.yml', 'HOP: relay2,', `HOP: relay2, WORK_MS: '${ms}',`]
    ]
    let edited = false
    for (const [file, from, to] of edits) {
      const at = path.join(dir, file)
      if (!fs.existsSync(at)) continue
      const text = fs.readFileSync(at, 'utf8')
      if (!text.includes(from)) throw new Error(`${file}: relay2 is not as expected`)
      fs.writeFileSync(at, text.replace(from, to))
      edited = true
    }
    if (!edited) throw new Error(`${dir} holds neither the Compose file nor the topology file`)
  }
