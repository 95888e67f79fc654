/**
 * The runner twin (helpers/runner-twin.ts) on README's Quick start for a repository with its own
 * services: a chain of three relays built from the repository (examples/services/relay) and
 * described by its topology file; the workflow's steps taken from README.md.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describeDocker } from './helpers/docker'
import { gitIn } from './helpers/gnes-repo'
import { servicesWorkflow } from './helpers/readme'
import { RunnerTwin } from './helpers/runner-twin'

const relay = (name: string, next: string | null) => `
  - name: ${name}
    image: octo/relay:dev
    build: { context: ../services/relay, dockerfile: Dockerfile }
    environment: { HOP: ${name}, NEXT: '${next ? `http://\${addr:${next}}/` : ''}' }
    port: 8080
    ready: { log: 'listening on' }`

const TOPOLOGY = `# The services this repository ships, as the benchmark starts them.
id: chain3
name: chain of 3 relays
kind: http
minimalRate: 20
services:${relay('relay1', 'relay2')}${relay('relay2', 'relay3')}${relay('relay3', null)}
load: { service: relay1, method: GET, path: / }
hops: { json: hops }
`

/** A repository with its services' code and the topology file README's snippet names. */
function servicesRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'services-repo-'))
  gitIn(dir, 'init', '-q', '-b', 'master')
  const source = path.join(__dirname, '..', 'examples', 'services', 'relay')
  fs.cpSync(source, path.join(dir, 'services', 'relay'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'bench'))
  fs.writeFileSync(path.join(dir, 'bench', 'topology.yml'), TOPOLOGY)
  return dir
}

/** Every relay does 1 ms more work per request: a code change, built into the head's images. */
const slowerRelays = (dir: string) => {
  const file = path.join(dir, 'services', 'relay', 'relay.py')
  const code = fs.readFileSync(file, 'utf8')
  const slower = code.replace(
    'WORK_SEC = float(os.environ.get("WORK_MS") or 0) / 1000',
    'WORK_SEC = float(os.environ.get("WORK_MS") or 1) / 1000'
  )
  expect(slower).not.toBe(code)
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
    'on a pull request that changes nothing the services run, comments without a regression',
    async () => {
      const run = await twin.pullRequest(repo, 1, 'docs', dir =>
        fs.writeFileSync(path.join(dir, 'README.md'), 'the relays\n')
      )
      expect(run.log).toMatch(/Job succeeded/)
      expect(run.log).toMatch(/the base is the pull request's merge-base/)
      expect(run.log).toMatch(/engine: docker/)
      const [comment] = twin.github.comments.get(1) ?? []
      expect(comment.body).toMatch(/chain of 3 relays/)
      expect(comment.body).not.toMatch(/🔴|regression in/)
      expect(comment.body).toMatch(/no change|inconclusive/)
    },
    PR_TIMEOUT
  )

  it(
    'on a pull request that makes every relay 1 ms slower, comments a regression',
    async () => {
      const run = await twin.pullRequest(repo, 2, 'slow', slowerRelays)
      expect(run.log).toMatch(/Job succeeded/)
      const [comment] = twin.github.comments.get(2) ?? []
      expect(comment.body).toMatch(/🔴 regression in 1 case/)
    },
    PR_TIMEOUT
  )
})
