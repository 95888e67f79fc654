import * as fs from 'node:fs'
import * as path from 'node:path'
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
    const image = (t: typeof head) => (t.topology.kind === 'http' ? t.topology.services[0] : null)
    expect(image(pair.head)).toMatchObject({ image: 'web:from-head-env', replicas: 3 })
    expect(image(pair.base)).toMatchObject({ image: 'web:from-base-env', replicas: 2 })
    expect(pair.base.file).toBe(`${checkout.dir}/compose.yaml+${checkout.dir}/compose.bench.yaml`)
  } finally {
    await checkout.remove()
  }
})
