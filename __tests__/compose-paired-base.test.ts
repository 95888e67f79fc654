import * as fs from 'node:fs'
import * as path from 'node:path'
import { assetPath } from '../src/paths'
import { checkoutBase, checkoutPairs } from '../src/pipeline/base-checkout'
import { resolveTopology } from '../src/topology/load'
import { git } from './fixtures/history/git'
import { tmp } from './helpers/tmp'

const compose = (tag: string) => `
services:
  web:
    image: web:\${TAG:-${tag}}
    expose: [80]
x-latency-bench:
  load: { service: web }
`

test("a paired run's base is each merged Compose file and the .env of the base's commit", async () => {
  const repo = tmp()
  const write = (name: string, text: string) => fs.writeFileSync(path.join(repo, name), text)
  git(repo, 'init', '-q', '-b', 'main')
  write('compose.yaml', compose('base'))
  write('compose.bench.yaml', 'services:\n  web:\n    deploy: { replicas: 2 }\n')
  write('.env', 'TAG=from-base-env\n')
  git(repo, 'add', '-A')
  git(repo, 'commit', '-q', '-m', 'base')
  const baseSha = git(repo, 'rev-parse', 'HEAD').trim()
  write('compose.bench.yaml', 'services:\n  web:\n    deploy: { replicas: 3 }\n')
  write('.env', 'TAG=from-head-env\n')

  const head = resolveTopology(`${repo}/compose.yaml+${repo}/compose.bench.yaml`)
  const checkout = await checkoutBase(repo, baseSha, tmp())
  try {
    const [pair] = checkoutPairs([{ head, base: head }], repo, checkout)
    const image = (t: Pick<typeof head, 'topology'>) =>
      t.topology.kind === 'http' ? t.topology.services[0] : null
    expect(image(pair.head)).toMatchObject({ image: 'web:from-head-env', replicas: 3 })
    expect(image(pair.base)).toMatchObject({ image: 'web:from-base-env', replicas: 2 })
    expect(pair.base.file).toBe(`${checkout.dir}/compose.yaml+${checkout.dir}/compose.bench.yaml`)
  } finally {
    await checkout.remove()
  }
})

test('a shipped case is its own base even where the action lies inside the workspace (bisect.yml)', () => {
  // bisect.yml checks the action out at .gnes-latency-bench/ in the workspace of the repository it
  // bisects: the commits it measures hold no copy of the action's cases.
  const workspace = path.dirname(assetPath())
  const head = resolveTopology(assetPath('topologies', 'case1.yml'))
  const checkout = { dir: tmp(), sha: 'f'.repeat(40), remove: async () => undefined }
  const [pair] = checkoutPairs([{ head, base: head }], workspace, checkout)
  expect(pair.base).toBe(head)
})
