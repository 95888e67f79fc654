/**
 * `!reset` and `!override` in a second Compose file, merged as Compose merges them, and every
 * problem of every file reported in one error before anything starts.
 */
import * as fs from 'node:fs'
import { TopologyError } from '../src/topology/errors'
import { loadTopologyFile } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { composeDir } from './helpers/compose'

const BASE = `
services:
  web:
    image: web:1
    expose: [80]
    network_mode: host
    cap_add: [NET_ADMIN]
    environment: { A: '1', B: '2' }
    volumes: [/etc:/etc-host:ro]
`

const load = (bench: string, base = BASE) => {
  const dir = composeDir({ 'compose.yaml': base, 'compose.bench.yaml': bench })
  return loadTopologyFile(`${dir}/compose.yaml+${dir}/compose.bench.yaml`) as HttpTopology
}

const refused = (bench: string, base = BASE): string => {
  try {
    load(bench, base)
  } catch (err) {
    expect(err).toBeInstanceOf(TopologyError)
    return (err as Error).message
  }
  throw new Error('loaded')
}

const BLOCK = 'x-latency-bench:\n  load: { service: web }\n'

test('!reset removes what the first file sets, so a refused key can be dropped', () => {
  const t = load(`services:
  web:
    network_mode: !reset null
    cap_add: !reset []
    volumes: !reset []
${BLOCK}`)
  expect(t.services[0].mounts).toEqual([])
  expect(t.services[0].environment).toEqual({ A: '1', B: '2' })
})

test('!override replaces a mapping whole; without it the mappings merge', () => {
  const reset = 'network_mode: !reset null\n    cap_add: !reset []\n    volumes: !reset []'
  const merged = load(`services:\n  web:\n    ${reset}\n    environment: { C: '3' }\n${BLOCK}`)
  expect(merged.services[0].environment).toEqual({ A: '1', B: '2', C: '3' })
  const replaced = load(
    `services:\n  web:\n    ${reset}\n    environment: !override { C: '3' }\n${BLOCK}`
  )
  expect(replaced.services[0].environment).toEqual({ C: '3' })
})

test('every refused key of every file, in one error, each naming its file and what to write', () => {
  const message = refused(`services:\n  web:\n    privileged: true\n${BLOCK}`)
  const lines = message.split('\n').slice(1)
  const places = lines.map(l => /^ {2}at (\S+):/.exec(l)?.[1])
  expect(places).toEqual([
    'services.web.network_mode',
    'services.web.cap_add',
    'services.web.privileged'
  ])
  expect(lines[0]).toContain('`network_mode: !reset null`')
  expect(lines[0]).toMatch(/\(in \S+compose\.yaml\)$/)
  expect(lines[2]).toMatch(/\(in \S+compose\.bench\.yaml\)$/)
})

test('problems of both files at once: an unknown key in each', () => {
  const message = refused(`services:\n  web:\n    imagee: x\n${BLOCK}`, BASE + '    colour: red\n')
  expect(message).toContain('at services.web.colour: unknown key')
  expect(message).toContain('at services.web.imagee: unknown key')
})

test('a tag on an unknown key or on a list item is refused', () => {
  const message = refused(
    `services:\n  web:\n    colour: !reset null\n    expose:\n      - !reset 80\n${BLOCK}`
  )
  expect(message).toContain('at services.web.colour: !reset on an unknown key')
  expect(message).toContain('at services.web.expose.0: !reset applies to a key')
})

test('volumes, secrets and configs of a later file replace the ones at their target, in place', () => {
  const base = `
services:
  web:
    image: web:1
    expose: [80]
    volumes: [./a.conf:/etc/app.conf:ro, data:/data]
    secrets: [pw]
    configs: [{ source: c, target: /etc/c }]
volumes: { data: {} }
secrets: { pw: { file: ./a.conf }, pw2: { file: ./b.conf } }
configs: { c: { file: ./a.conf }, c2: { file: ./b.conf } }
`
  const bench = `services:
  web:
    volumes: [{ type: bind, source: ./b.conf, target: /etc/app.conf }, /extra]
    secrets: [{ source: pw2, target: pw }]
    configs: [{ source: c2, target: /etc/c }]
${BLOCK}`
  const dir = composeDir({
    'compose.yaml': base,
    'compose.bench.yaml': bench,
    'a.conf': 'a',
    'b.conf': 'b'
  })
  const t = loadTopologyFile(`${dir}/compose.yaml+${dir}/compose.bench.yaml`) as HttpTopology
  const b = fs.realpathSync(`${dir}/b.conf`)
  expect(t.services[0].mounts).toEqual([
    { type: 'bind', source: b, target: '/etc/app.conf', readOnly: false },
    { type: 'volume', source: 'data', target: '/data' },
    { type: 'volume', target: '/extra' },
    { type: 'bind', source: b, target: '/run/secrets/pw', readOnly: true, as: 'secret' },
    { type: 'bind', source: b, target: '/etc/c', readOnly: true, as: 'config' }
  ])
})
