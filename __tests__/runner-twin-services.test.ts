/**
 * The runner twin (helpers/runner-twin.ts) on README's Quick start for a repository with its own
 * services: a chain of three relays built from the repository (examples/services/relay), run by
 * its own docker-compose.yml with the `x-latency-bench` block added; the workflow's steps taken
 * from README.md. A pull request that changes nothing is the GNES twin's to show (an unchanged
 * chain of relays took 8 minutes of pairs to say so on a busy machine): here, one relay slowed.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describeDocker } from './helpers/docker'
import { gitIn } from './helpers/gnes-repo'
import { servicesWorkflow } from './helpers/readme'
import { RunnerTwin } from './helpers/runner-twin'

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

/** The Compose file the team runs its services with, and the block README's Quick start adds. */
const COMPOSE = `services:${relay('relay1', 'relay2')}${relay('relay2', 'relay3')}${relay('relay3', null)}

x-latency-bench:
  name: chain of 3 relays
  load: { service: relay1, method: GET, path: / }
  hops: { json: hops }
  minimalRate: 20
`

/** A repository with its services' code and the Compose file README's snippet names. */
function servicesRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'services-repo-'))
  gitIn(dir, 'init', '-q', '-b', 'master')
  const source = path.join(__dirname, '..', 'examples', 'services', 'relay')
  fs.cpSync(source, path.join(dir, 'services', 'relay'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'docker-compose.yml'), COMPOSE)
  return dir
}

/** relay2 does 1 ms more work per request: the pull request edits the Compose file. */
const slowerRelay2 = (dir: string) => {
  const file = path.join(dir, 'docker-compose.yml')
  const compose = fs.readFileSync(file, 'utf8')
  const slower = compose.replace('      HOP: relay2\n', "      HOP: relay2\n      WORK_MS: '1'\n")
  expect(slower).not.toBe(compose)
  fs.writeFileSync(file, slower)
}

/** A pull request's job: its builds, and pairs for up to the whole budget on a busy machine. */
const PR_TIMEOUT = 25 * 60_000

describeDocker('the runner twin: README’s Quick start for your own services, under act', () => {
  const twin = new RunnerTwin()
  const repo = servicesRepository()

  beforeAll(() => twin.start(repo, servicesWorkflow()))
  afterAll(() => twin.close())

  it(
    'on a pull request that makes relay2 1 ms slower, comments a regression naming its hop',
    async () => {
      const run = await twin.pullRequest(repo, 2, 'slow', slowerRelay2)
      expect(run.log).toMatch(/Job succeeded/)
      const [comment] = twin.github.comments.get(2) ?? []
      expect(comment.body).toMatch(/🔴 regression in 1 case/)
      // The relay that slowed is named first, with its share of the change (or its move in time
      // when the share is unbounded: the band's own move not clear of zero).
      expect(comment.body).toMatch(/: `hop:relay2`[^,]* \+\d[\d.]* (ms|µs) \((\d+ %, )?interval/)
    },
    PR_TIMEOUT
  )
})
