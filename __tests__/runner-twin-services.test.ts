/**
 * The runner twin (helpers/runner-twin.ts) on README's Quick start for a repository with its own
 * services: a chain of three relays built from the repository (examples/services/relay), run by
 * its own docker-compose.yml with the `x-latency-bench` block added; the workflow's steps taken
 * from README.md. A pull request that changes nothing is the GNES twin's to show (an unchanged
 * chain of relays took 8 minutes of pairs to say so on a busy machine): here, one relay slowed.
 */
import { describeDocker } from './helpers/docker'
import { re, SECONDS, SHARE } from './helpers/figures'
import { servicesWorkflow } from './helpers/readme'
import { RunnerTwin } from './helpers/runner-twin'
import { RELAY_COMPOSE, servicesRepository, slowerRelay2 } from './helpers/services-repo'

/** A pull request's job: its builds, and pairs for up to the whole budget on a busy machine. */
const PR_TIMEOUT = 25 * 60_000

describeDocker('the runner twin: README’s Quick start for your own services, under act', () => {
  // Made as the tests start: a file whose tests are all skipped runs no afterAll to remove them.
  let twin: RunnerTwin
  let repo: string

  beforeAll(() => {
    twin = new RunnerTwin()
    repo = servicesRepository({ 'docker-compose.yml': RELAY_COMPOSE })
    return twin.start(repo, servicesWorkflow())
  })
  afterAll(() => twin.close())

  it(
    'on a pull request that makes relay2 1 ms slower, comments a regression naming its hop',
    async () => {
      const run = await twin.pullRequest(repo, 2, 'slow', slowerRelay2(1))
      expect(run.log).toMatch(/Job succeeded/)
      const [comment] = twin.github.comments.get(2) ?? []
      expect(comment.body).toMatch(/🔴 regression in 1 case/)
      // The relay that slowed is named first, with its share of the change (or its move in time
      // when the share is unbounded: the band's own move not clear of zero).
      expect(comment.body).toMatch(re`: \`hop:relay2\`[^,]* \+${SECONDS} \((?:${SHARE}, )?interval`)
    },
    PR_TIMEOUT
  )
})
