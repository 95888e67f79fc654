/**
 * Hostile Compose files: mounts of the host's root or the Docker socket, symbolic links and
 * secrets that lead out of the checkout, volumes that bind a host path, huge files, merge tags on
 * unknown keys, the host's namespaces. Each is refused before anything starts, at its place, and
 * loading writes nothing: the checkout is as it was, and what lies outside it is untouched.
 */
import * as fs from 'node:fs'
import * as net from 'node:net'
import * as path from 'node:path'
import { TopologyError } from '../src/topology/errors'
import { loadTopologyFile } from '../src/topology/load'
import { tmp } from './helpers/tmp'

const web = (lines: string, top = '') => `services:
  web:
    image: web:1
    expose: [80]
${lines
  .split('\n')
  .map(l => `    ${l}`)
  .join('\n')}
${top}x-latency-bench:
  load: { service: web }
`

/** A checkout with the file, a sibling outside it, and links that lead out. */
function checkout(text: string, extra?: (dir: string) => void): { dir: string; outside: string } {
  const root = tmp()
  const dir = path.join(root, 'repo')
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true })
  const outside = path.join(root, 'outside.txt')
  fs.writeFileSync(outside, 'not the checkout\n')
  fs.symlinkSync('/etc', path.join(dir, 'etc-link'))
  fs.symlinkSync('..', path.join(dir, 'up'))
  fs.symlinkSync('etc-link', path.join(dir, 'link-to-link'))
  fs.symlinkSync(outside, path.join(dir, 'secret-link'))
  fs.writeFileSync(path.join(dir, 'compose.yaml'), text)
  extra?.(dir)
  return { dir, outside }
}

/** [what, the file, the place refused, words of the reason, more set-up] */
const HOSTILE: [string, string, string, string, ((dir: string) => void)?][] = [
  ['the host root', web('volumes: [/:/host]'), 'volumes.0', 'outside the checkout'],
  ['the host root, read-only', web('volumes: [/:/host:ro]'), 'volumes.0', 'outside the checkout'],
  [
    'the Docker socket',
    web('volumes: [/var/run/docker.sock:/var/run/docker.sock]'),
    'volumes.0',
    'socket'
  ],
  [
    'the Docker socket, long form',
    web('volumes: [{ type: bind, source: /run/docker.sock, target: /d.sock }]'),
    'volumes.0',
    'socket'
  ],
  [
    'a socket inside the checkout',
    web('volumes: [./here.sock:/here.sock]'),
    'volumes.0',
    'socket',
    dir => {
      const server = net.createServer().listen(path.join(dir, 'here.sock'))
      server.unref()
    }
  ],
  ['a link to /etc', web('volumes: [./etc-link:/x:ro]'), 'volumes.0', 'it leads to /etc'],
  ['a link to the parent', web('volumes: [./up:/x:ro]'), 'volumes.0', 'outside the checkout'],
  ['a chain of links out', web('volumes: [./link-to-link:/x:ro]'), 'volumes.0', 'it leads to /etc'],
  [
    '.. out of the checkout',
    web('volumes: [./../../..:/x:ro]'),
    'volumes.0',
    'outside the checkout'
  ],
  ['a home directory', web('volumes: [~/.ssh:/root/.ssh:ro]'), 'volumes.0', 'home directory'],
  ['a path that does not exist', web('volumes: [./absent:/x:ro]'), 'volumes.0', 'does not exist'],
  [
    'a secret of the host',
    web('secrets: [s]', 'secrets: { s: { file: /etc/passwd } }\n'),
    'secrets.0',
    'outside the checkout'
  ],
  [
    'a secret beside the checkout',
    web('secrets: [s]', 'secrets: { s: { file: ../outside.txt } }\n'),
    'secrets.0',
    'outside the checkout'
  ],
  [
    'a secret through a link',
    web('secrets: [s]', 'secrets: { s: { file: ./secret-link } }\n'),
    'secrets.0',
    'outside the checkout'
  ],
  [
    'a config of the host',
    web('configs: [c]', 'configs: { c: { file: /etc/hosts } }\n'),
    'configs.0',
    'outside the checkout'
  ],
  [
    'an external secret',
    web('secrets: [s]', 'secrets: { s: { external: true } }\n'),
    'secrets.0',
    'external'
  ],
  [
    'an external config',
    web('configs: [c]', 'configs: { c: { external: true } }\n'),
    'configs.0',
    'external'
  ],
  [
    'an external volume',
    web('volumes: [v:/data]', 'volumes: { v: { external: true } }\n'),
    'volumes.0',
    'external'
  ],
  [
    'a volume binding a host path',
    web(
      'volumes: [v:/data]',
      'volumes: { v: { driver_opts: { type: none, o: bind, device: / } } }\n'
    ),
    'volumes.0',
    'driver_opts'
  ],
  [
    'a volume driver',
    web('volumes: [v:/data]', 'volumes: { v: { driver: nfs } }\n'),
    'volumes.0',
    'driver'
  ],
  [
    'a named pipe',
    web('volumes: [{ type: npipe, source: x, target: /p }]'),
    'volumes.0.type',
    'not supported'
  ],
  ['privileged', web('privileged: true'), 'privileged', 'host'],
  ['cap_add', web('cap_add: [SYS_ADMIN]'), 'cap_add', 'host'],
  ['devices', web('devices: [/dev/sda:/dev/sda]'), 'devices', 'host'],
  ['host pid', web('pid: host'), 'pid', 'host'],
  ['host networking', web('network_mode: host'), 'network_mode', 'topology network'],
  ['the API socket', web('use_api_socket: true'), 'use_api_socket', 'host'],
  ['no seccomp', web('security_opt: [seccomp:unconfined]'), 'security_opt', 'host'],
  ['!reset on an unknown key', web('colour: !reset null'), 'colour', 'unknown key'],
  ['!override on an unknown key', web('colour: !override {}'), 'colour', 'unknown key'],
  ['!reset on a list item', web('command:\n  - !reset a'), 'command.0', 'list item'],
  [
    'a huge env file',
    web('env_file: big.env'),
    'env_file.0',
    'larger than',
    dir => fs.writeFileSync(path.join(dir, 'big.env'), `A=${'x'.repeat(300_000)}\n`)
  ]
]

function snapshot(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map(e => {
      const full = path.join(e.parentPath, e.name)
      return `${path.relative(dir, full)} ${fs.lstatSync(full).size} ${fs.lstatSync(full).mtimeMs}`
    })
    .sort()
}

describe('hostile Compose files, each refused before anything starts, nothing written', () => {
  test('at least 30 (with the two below)', () =>
    expect(HOSTILE.length + 2).toBeGreaterThanOrEqual(30))

  // Every row as five values: a shorter row would hand jest's `done` to the test as the set-up.
  const rows = HOSTILE.map(
    ([what, text, where, why, extra]) => [what, text, where, why, extra ?? null] as const
  )

  test.each(rows)('%s', (_what, text, where, why, extra) => {
    const { dir, outside } = checkout(text, extra ?? undefined)
    const root = path.dirname(dir)
    const before = snapshot(root)
    let message = ''
    try {
      loadTopologyFile(path.join(dir, 'compose.yaml'))
    } catch (err) {
      expect(err).toBeInstanceOf(TopologyError)
      message = (err as Error).message
    }
    expect(message).toMatch(
      new RegExp(`at services\\.web[ .(][^\\n]*${where.replace(/\./g, '\\.')}`)
    )
    expect(message).toContain(why)
    expect(snapshot(root)).toEqual(before)
    expect(fs.readFileSync(outside, 'utf8')).toBe('not the checkout\n')
  })

  test('a huge Compose file is refused by its size, before it is read', () => {
    const { dir } = checkout(web('command: [a]') + `# ${'x'.repeat(300_000)}\n`)
    expect(() => loadTopologyFile(path.join(dir, 'compose.yaml'))).toThrow(/at most \d+ bytes/)
  })

  test('aliases that expand without bound (a billion laughs) are refused', () => {
    const laughs = [
      'x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = i === 0 ? 'a' : `l${i - 1}`
        return `x-l${i}: &l${i} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`
      })
    ].join('\n')
    const { dir } = checkout(`${laughs}\n${web('command: [a]')}`)
    expect(() => loadTopologyFile(path.join(dir, 'compose.yaml'))).toThrow(TopologyError)
  })
})
