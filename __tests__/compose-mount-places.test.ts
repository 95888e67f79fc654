/**
 * A mount refused after the Compose files are compiled (by the native schema, or because its file
 * leads out of the checkout) is named at the entry it was written as: `services.web.tmpfs.2`,
 * whatever the service's other volumes, tmpfs, secrets and configs, and in merged files at the
 * merged model's index.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { TopologyError } from '../src/topology/errors'
import { loadTopologyFile } from '../src/topology/load'
import { tmp } from './helpers/tmp'

const TOP = `volumes: { data: {} }
secrets: { s: { file: ./s.txt }, out: { file: ../outside.txt } }
configs: { c: { file: ./c.txt }, c2: { file: ./c.txt }, out: { file: ../outside.txt } }
x-latency-bench:
  load: { service: web }
`

/** A Compose file whose service `web` mounts every kind: `keys` replaces its lists (YAML lines). */
function compose(keys: Record<string, string>): string {
  const all = {
    volumes: "['./d:/a:ro', 'data:/b']",
    tmpfs: '[/t1, /t2]',
    secrets: '[s]',
    configs: '[c]',
    ...keys
  }
  const lines = Object.entries(all).map(([k, v]) => `    ${k}: ${v}`)
  return `services:\n  web:\n    image: web:1\n    expose: [80]\n${lines.join('\n')}\n${TOP}`
}

/** A checkout holding `files` (name → text), its mounted files, and a file beside it outside. */
function checkout(files: Record<string, string>): string {
  const dir = path.join(tmp(), 'repo')
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'd'))
  fs.writeFileSync(path.join(dir, 's.txt'), 'secret\n')
  fs.writeFileSync(path.join(dir, 'c.txt'), 'config\n')
  fs.writeFileSync(path.join(dir, '..', 'outside.txt'), 'not the checkout\n')
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text)
  return dir
}

/** The lines of the error loading `spec` (files of `dir` joined with +) is refused with. */
function problems(dir: string, spec: string): string[] {
  try {
    loadTopologyFile(
      spec
        .split('+')
        .map(f => path.join(dir, f))
        .join('+')
    )
  } catch (err) {
    expect(err).toBeInstanceOf(TopologyError)
    return (err as Error).message.split('\n').slice(1)
  }
  throw new Error('loaded')
}

const LONG = `x${'y'.repeat(1100)}`

/** [what, the service's lists, the place named below services.web, words of the reason] */
const ONE_FILE: [string, Record<string, string>, string, string][] = [
  [
    'a short volume binding a path outside',
    { volumes: "['./d:/a:ro', 'data:/b', '/etc:/x:ro']" },
    'volumes.2',
    '/etc is outside the checkout'
  ],
  [
    'a long volume binding a file outside',
    { volumes: "['./d:/a:ro', { type: bind, source: ../outside.txt, target: /x }]" },
    'volumes.1',
    'outside.txt is outside the checkout'
  ],
  [
    'a short volume at a relative target',
    { volumes: "['./d:/a:ro', 'data:/b', 'data:rel']" },
    'volumes.2 (as the native target)',
    'an absolute path'
  ],
  [
    'a tmpfs volume at a relative target',
    { volumes: "['./d:/a:ro', { type: tmpfs, target: rel }]" },
    'volumes.1 (as the native target)',
    'an absolute path'
  ],
  [
    'a tmpfs volume of no size',
    { volumes: "['./d:/a:ro', 'data:/b', { type: tmpfs, target: /t, tmpfs: { size: 0 } }]" },
    'volumes.2 (as the native sizeBytes)',
    'greater than 0'
  ],
  [
    'a tmpfs at a relative path, after the volumes',
    { tmpfs: '[/t1, /t2, rel]' },
    'tmpfs.2 (as the native target)',
    'an absolute path'
  ],
  [
    'a tmpfs of one relative path',
    { tmpfs: 'rel' },
    'tmpfs (as the native target)',
    'an absolute path'
  ],
  [
    'a secret from a file outside, after volumes and tmpfs',
    { secrets: '[s, out]' },
    'secrets.1',
    'outside.txt is outside the checkout'
  ],
  [
    'a secret at a target too long',
    { secrets: `[s, { source: s, target: ${LONG} }]` },
    'secrets.1 (as the native target)',
    'an absolute path'
  ],
  [
    'a config from a file outside, after every other kind',
    { configs: '[c, c2, out]' },
    'configs.2',
    'outside.txt is outside the checkout'
  ],
  [
    'a config at a target too long',
    { configs: `[{ source: c, target: /${LONG} }, c2]` },
    'configs.0 (as the native target)',
    'an absolute path'
  ]
]

describe('a mount refused after compiling is named at its Compose entry', () => {
  test.each(ONE_FILE)('%s', (_what, keys, place, why) => {
    const dir = checkout({ 'compose.yaml': compose(keys) })
    const found = problems(dir, 'compose.yaml')
    expect(found).toHaveLength(1)
    expect(found[0].startsWith(`  at services.web.${place}: `)).toBe(true)
    expect(found[0]).toContain(why)
  })

  test('every kind at once, each at its own entry', () => {
    const text = compose({
      volumes: "['/etc:/a:ro', 'data:/b', 'data:rel']",
      tmpfs: '[/t1, rel]',
      secrets: '[out, s]',
      configs: '[c, out]'
    })
    const found = problems(checkout({ 'compose.yaml': text }), 'compose.yaml')
    expect(found.map(l => l.slice(0, l.indexOf(':')))).toEqual([
      '  at services.web.volumes.2 (as the native target)',
      '  at services.web.tmpfs.1 (as the native target)'
    ])
    // The schema's problems stop the load before the checkout's; with them fixed, the files'.
    const files = compose({
      volumes: "['/etc:/a:ro', 'data:/b']",
      secrets: '[out, s]',
      configs: '[c, out]'
    })
    expect(
      problems(checkout({ 'compose.yaml': files }), 'compose.yaml').map(l =>
        l.slice(0, l.indexOf(':'))
      )
    ).toEqual([
      '  at services.web.volumes.0',
      '  at services.web.secrets.0',
      '  at services.web.configs.1'
    ])
  })

  test('in merged files, an entry replacing one at its target keeps its place, one added follows', () => {
    const dir = checkout({
      'compose.yaml': compose({ volumes: "['./d:/a:ro', './d:/b:ro', 'data:/c']" }),
      'compose.bench.yaml': `services:
  web:
    volumes: ['/etc:/b:ro']
    tmpfs: [rel]
    secrets: [{ source: out, target: other }]
    configs: [{ source: out, target: /c }]
`
    })
    // The tmpfs is appended after /t1 and /t2; the rest are refused once it is fixed.
    expect(problems(dir, 'compose.yaml+compose.bench.yaml')).toEqual([
      expect.stringContaining('at services.web.tmpfs.2 (as the native target): ')
    ])
    fs.writeFileSync(
      path.join(dir, 'compose.bench.yaml'),
      fs.readFileSync(path.join(dir, 'compose.bench.yaml'), 'utf8').replace('[rel]', '[/t3]')
    )
    const found = problems(dir, 'compose.yaml+compose.bench.yaml')
    expect(found.map(l => l.slice(0, l.indexOf(':')))).toEqual([
      '  at services.web.volumes.1',
      '  at services.web.secrets.1',
      '  at services.web.configs.0'
    ])
    expect(found[0]).toContain('/etc is outside the checkout')
  })
})
