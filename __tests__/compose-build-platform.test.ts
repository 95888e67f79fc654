/**
 * `platform`, checked against the daemon's before a deployment creates anything, and
 * `build.cache_from`, left out with a note. Pure.
 */
import { platformProblem } from '../src/engine/docker/platform'
import type { ServicePlan } from '../src/engine/plan/types'
import * as path from 'node:path'
import { loadTopologyFile } from '../src/topology/load'
import { compileText, compileWithNotes, composeDir } from './helpers/compose'

const file = (lines: string) => `
services:
  web:
    image: web:1
    expose: [80]
${lines}
x-latency-bench:
  load: { service: web }
`

const settingsOf = (data: Record<string, unknown>) =>
  (data.services as { container?: { platform?: string } }[])[0].container

const service = (name: string, platform?: string): ServicePlan =>
  ({ name, settings: platform ? { platform } : null }) as unknown as ServicePlan

const AMD64 = { os: 'linux', architecture: 'x86_64' }

describe('platform', () => {
  test('is kept as the container setting, in lower case as the OCI spells it', () => {
    expect(settingsOf(compileText(file('    platform: Linux/AMD64')))).toEqual({
      platform: 'linux/amd64'
    })
  })

  test("the daemon's own platform runs, its kernel's machine name read as the OCI's", () => {
    expect(platformProblem([service('a', 'linux/amd64'), service('b')], AMD64)).toBeNull()
    const arm = { os: 'linux', architecture: 'aarch64' }
    expect(
      platformProblem([service('a', 'linux/arm64'), service('b', 'linux/arm64/v8')], arm)
    ).toBeNull()
  })

  test('another is refused, naming the service, both platforms and what to write', () => {
    for (const [asked, daemon] of [
      ['linux/arm64', AMD64],
      ['windows/amd64', AMD64],
      ['linux/amd64', { os: 'linux', architecture: 'aarch64' }]
    ] as const) {
      const runs = `${daemon.os}/${daemon.architecture === 'x86_64' ? 'amd64' : 'arm64'}`
      expect(platformProblem([service('ok'), service('web', asked)], daemon)).toBe(
        `service 'web' asks for the platform ${asked}, and the Docker daemon runs ${runs}: run it on a daemon of that platform, or remove it for the benchmark (\`platform: !reset null\` in the file with x-latency-bench), and the image is built and run for the daemon`
      )
    }
  })

  test('a value that is no platform is refused at its key', () => {
    const dir = composeDir({ 'compose.yaml': file('    platform: amd64') })
    expect(() => loadTopologyFile(path.join(dir, 'compose.yaml'))).toThrow(
      /container\.platform.*os\/architecture/s
    )
  })
})

describe('build.cache_from', () => {
  test('is left out, and the note says so for each service that names it', () => {
    const { notes } = compileWithNotes(
      file('    build: { context: ., cache_from: [type=registry,ref=example.com/web:cache] }'),
      {},
      { Dockerfile: 'FROM scratch\n' }
    )
    expect(notes).toEqual([
      "services.web.build.cache_from is ignored: BuildKit reads it from a registry, which a run cannot count on reaching; the daemon's own build cache serves every build after the first"
    ])
    expect(
      compileWithNotes(file('    build: .'), {}, { Dockerfile: 'FROM scratch\n' }).notes
    ).toEqual([])
  })
})
