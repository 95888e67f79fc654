import * as fs from 'node:fs'
import * as path from 'node:path'
import { NESTED_KEYS, SERVICE_KEYS, TOP_KEYS } from '../src/topology/compose/keys'
import { specProblems } from '../src/topology/compose/spec'
import spec from '../src/topology/compose/compose-spec.json'
import { TopologyError } from '../src/topology/errors'
import { loadTopologyFile } from '../src/topology/load'
import { yamlData } from '../src/topology/yaml'
import { composeDir } from './helpers/compose'

/** A valid file: `web` (the load's service) and `db`, each with one port. */
const GOOD = `
services:
  web:
    image: web:1
    expose: [80]
    depends_on: [db]
  db:
    image: db:1
    expose: [5432]
x-latency-bench:
  load: { service: web }
`

/** The error of loading `text` as compose.yaml (with `others` beside it), with its file. */
function refusedWith(text: string, others: Record<string, string> = {}) {
  const dir = composeDir({ 'compose.yaml': text, ...others })
  const file = path.join(dir, 'compose.yaml')
  try {
    loadTopologyFile(file)
  } catch (err) {
    expect(err).toBeInstanceOf(TopologyError)
    return { file, message: (err as Error).message }
  }
  throw new Error(`loaded:\n${text}`)
}

/** GOOD with `web`'s block given extra lines (or a replacement of one line). */
const webWith = (lines: string) =>
  GOOD.replace('    depends_on: [db]', `    depends_on: [db]\n${lines}`)

/** [what is wrong, the file, the place named, words of the reason, files beside it] */
const BAD: [string, string, string, string, Record<string, string>?][] = [
  ['an unknown key', webWith('    imagee: web:2'), 'services.web.imagee', 'unknown key'],
  [
    'a wrong type',
    GOOD.replace('image: web:1', 'image: [web]'),
    'services.web.image',
    'must be string'
  ],
  [
    'a wrong value',
    GOOD.replace('depends_on: [db]', 'depends_on: { db: { condition: service_ready } }'),
    'services.web.depends_on.db.condition',
    'must be one of'
  ],
  [
    'a refused key',
    webWith('    privileged: true'),
    'services.web.privileged',
    'reaches into the host'
  ],
  [
    'a bind mount outside the checkout',
    webWith('    volumes: [/etc:/data:ro]'),
    'services.web.volumes.0',
    'outside the checkout'
  ],
  [
    'a named volume not declared',
    webWith('    volumes: [data:/data]'),
    'services.web.volumes.0',
    "no top-level volume named 'data'"
  ],
  [
    'an external volume',
    webWith('    volumes: [data:/data]') + 'volumes: { data: { external: true } }\n',
    'services.web.volumes.0',
    'creates it empty for each deployment'
  ],
  [
    'host networking',
    webWith('    network_mode: host'),
    'services.web.network_mode',
    'topology network'
  ],
  ['host pid', webWith('    pid: host'), 'services.web.pid', 'host'],
  ['host ipc', webWith('    ipc: host'), 'services.web.ipc', 'host'],
  ['cap_add', webWith('    cap_add: [NET_ADMIN]'), 'services.web.cap_add', 'host'],
  ['devices', webWith('    devices: [/dev/fuse]'), 'services.web.devices', 'host'],
  [
    'an external secret',
    webWith('    secrets: [token]') + 'secrets: { token: { external: true } }\n',
    'services.web.secrets.0',
    'give it a file of the checkout'
  ],
  [
    'a config without a file',
    webWith('    configs: [c]') + 'configs: { c: { labels: { a: b } } }\n',
    'services.web.configs.0',
    'write it to a file of the checkout'
  ],
  [
    'extends',
    webWith('    extends: { service: db }'),
    'services.web.extends',
    'extends is not supported'
  ],
  ['include', GOOD + 'include: [other.yaml]\n', 'include', 'include is not supported'],
  [
    'a build option',
    webWith('    build: { context: ., ssh: [default] }'),
    'services.web.build.ssh',
    'does not support'
  ],
  [
    'a static address',
    webWith('    networks: { n: { ipv4_address: 10.0.0.2 } }'),
    'services.web.networks.n.ipv4_address',
    '`ipv4_address: !reset null`'
  ],
  [
    'placement preferences',
    webWith('    deploy: { placement: { preferences: [{ spread: node.id }] } }'),
    'services.web.deploy.placement.preferences',
    'only placement constraints'
  ],
  [
    'a global service',
    webWith('    deploy: { mode: global }'),
    'services.web.deploy.mode',
    "'global' is not supported"
  ],
  [
    'a remote build context',
    webWith('    build: https://example.com/app.git'),
    'services.web.build.context',
    'remote build context'
  ],
  [
    'a cycle',
    GOOD.replace('    expose: [5432]', '    expose: [5432]\n    depends_on: [web]'),
    'services.web.depends_on',
    'cycle among web, db'
  ],
  [
    'a missing dependency',
    GOOD.replace('depends_on: [db]', 'depends_on: [cache]'),
    'services.web.depends_on.cache',
    "no service named 'cache'"
  ],
  [
    'waiting for a health check that is not there',
    GOOD.replace('depends_on: [db]', 'depends_on: { db: { condition: service_healthy } }'),
    'services.web.depends_on.db',
    'no healthcheck'
  ],
  ['no bench block', GOOD.replace(/x-latency-bench:[^]*$/, ''), 'x-latency-bench', 'missing'],
  [
    'a load service that is not a service',
    GOOD.replace('service: web }', 'service: api }'),
    'x-latency-bench.load.service',
    "no service named 'api'"
  ],
  [
    'a load service without a port',
    GOOD.replace('    expose: [80]\n', ''),
    'x-latency-bench.load.port',
    'no container port'
  ],
  [
    'a load service with several ports',
    GOOD.replace('expose: [80]', 'expose: [80, 443]'),
    'x-latency-bench.load.port',
    'several container ports (80, 443)'
  ],
  [
    'an unknown key in the bench block',
    GOOD.replace('load: {', 'laod: {}\n  load: {'),
    'x-latency-bench',
    'laod'
  ],
  [
    'an unknown load field',
    GOOD.replace('service: web }', 'service: web, verb: GET }'),
    'x-latency-bench.load',
    'verb'
  ],
  [
    'a required variable',
    GOOD.replace('image: db:1', 'image: db:${DB_TAG:?name the tag}'),
    'services.db.image',
    'variable DB_TAG is unset: name the tag'
  ],
  [
    'a seccomp profile',
    webWith('    security_opt: [no-new-privileges, seccomp=./profile.json]'),
    'services.web.security_opt.1',
    '"seccomp=./profile.json" sets the system-call filter from a file of the host'
  ],
  [
    'no-new-privileges that is neither true nor false',
    webWith('    security_opt: [no-new-privileges:maybe]'),
    'services.web.security_opt.0',
    'write no-new-privileges:true or no-new-privileges:false'
  ],
  [
    'process limits that disagree',
    webWith('    pids_limit: 100\n    deploy: { resources: { limits: { pids: 50 } } }'),
    'services.web.pids_limit',
    '100 and deploy.resources.limits.pids 50 disagree'
  ],
  [
    'a process limit that is not a number',
    webWith('    pids_limit: many'),
    'services.web.pids_limit',
    "'many' is not a number of processes"
  ],
  [
    'a capability name Docker cannot have',
    webWith("    cap_drop: ['NET RAW']"),
    'services.web (as the native container.capDrop.0)',
    'a capability name'
  ],
  [
    'a missing env file',
    webWith('    env_file: web.env'),
    'services.web.env_file.0',
    'does not exist'
  ],
  [
    'a bad line in an env file',
    webWith('    env_file: web.env'),
    'services.web.env_file.0',
    'line 2: not KEY=VALUE',
    { 'web.env': 'A=1\nnonsense here\n' }
  ],
  ['a bad .env', GOOD, '(top level)', 'unclosed "', { '.env': 'A="open\n' }],
  [
    'a bad duration',
    webWith('    healthcheck: { test: [CMD, ok], interval: 10x }'),
    'services.web.healthcheck.interval',
    'not a duration'
  ],
  [
    'a bad start interval',
    webWith('    healthcheck: { test: [CMD, ok], start_interval: soon }'),
    'services.web.healthcheck.start_interval',
    'not a duration'
  ],
  [
    'a health check without test',
    webWith('    healthcheck: { interval: 1s }'),
    'services.web.healthcheck.test',
    "image's own check"
  ],
  ['an unclosed quote', webWith("    command: echo 'hi"), 'services.web.command', "unclosed '"],
  [
    'an empty entrypoint',
    webWith("    entrypoint: ''"),
    'services.web.entrypoint',
    'empty entrypoint'
  ],
  [
    'nothing to run',
    GOOD.replace('    image: db:1\n', ''),
    'services.db.image',
    'neither image nor build'
  ],
  [
    'replicas that disagree',
    webWith('    scale: 2\n    deploy: { replicas: 3 }'),
    'services.web.scale',
    'disagree'
  ],
  [
    'a container port out of range',
    GOOD.replace('expose: [5432]', "expose: ['70000']"),
    'services.db.expose.0',
    'not a port range'
  ],
  [
    'a name the engines cannot use',
    GOOD.replace(/\bdb\b/g, '1db'),
    'services.1db',
    'starting with a letter'
  ],
  [
    'too little memory',
    webWith('    mem_limit: 1m'),
    'services.web (as the native resources.memory)',
    'at least 6M'
  ],
  [
    'too many services',
    GOOD.replace(
      'services:\n',
      `services:\n${Array.from({ length: 40 }, (_, i) => `  s${i}: { image: s:1, expose: [1] }\n`).join('')}`
    ),
    'services',
    'at most 32 services'
  ]
]

describe('bad Compose files, each refused with one clear error before anything starts', () => {
  for (const [what, text, where, why, others] of BAD) {
    test(what, () => {
      const { file, message } = refusedWith(text, others)
      const [head, ...places] = message.split('\n')
      const named = others?.['.env'] ? path.join(path.dirname(file), '.env') : file
      expect(head).toBe(`${named}: invalid topology:`)
      expect(places).toEqual([expect.stringContaining(`at ${where}: `)])
      expect(places[0]).toContain(why)
    })
  }

  test('every bad file above is refused at a different place or for a different reason', () => {
    const seen = new Set(BAD.map(([, , where, why]) => `${where} ${why}`))
    expect(seen.size).toBe(BAD.length)
  })
})

const serviceKeys = Object.keys(spec.definitions.service.properties)

/** A value of `key` that the specification accepts in a service, to see what the benchmark makes of it. */
function validValue(key: string): unknown {
  const candidates = [
    true,
    'host',
    ['x'],
    { x: 'y' },
    1,
    { weight: 10 },
    { file: 'x' },
    [{ command: 'x' }],
    { type: 'x' }
  ]
  const ok = candidates.find(
    v => specProblems({ services: { web: { image: 'i', [key]: v } } }).length === 0
  )
  if (ok === undefined) throw new Error(`no candidate value is valid for ${key}`)
  return ok
}

describe("every key of the specification's service has a decision", () => {
  test('the table names every service key of the pinned schema, and nothing else', () => {
    expect(Object.keys(SERVICE_KEYS).sort()).toEqual([...serviceKeys].sort())
    expect(Object.keys(TOP_KEYS).sort()).toEqual(Object.keys(spec.properties).sort())
  })

  const refused = Object.entries(SERVICE_KEYS).filter(([, d]) => typeof d === 'object')
  for (const [key, decision] of refused) {
    test(`${key} is refused, naming the service and the key`, () => {
      const value = validValue(key)
      const { message } = refusedWith(
        GOOD.replace(
          '    depends_on: [db]',
          `    depends_on: [db]\n    ${key}: ${JSON.stringify(value)}`
        )
      )
      expect(message).toContain(
        `at services.web.${key}: ${(decision as { refused: string }).refused}`
      )
    })
  }

  test('security_opt: every entry but no-new-privileges refused at once, each with what it does', () => {
    const entries = [
      'no-new-privileges:true',
      'seccomp:unconfined',
      'apparmor=unconfined',
      'label:disable',
      'disable',
      'systempaths=unconfined',
      'writable-cgroups=true'
    ]
    const { message } = refusedWith(webWith(`    security_opt: ${JSON.stringify(entries)}`))
    const places = message.split('\n').slice(1)
    expect(places.map(p => /at (\S+):/.exec(p)![1])).toEqual(
      entries.slice(1).map((_, i) => `services.web.security_opt.${i + 1}`)
    )
    for (const [i, why] of [
      'lifts it',
      'under none',
      'lifts them',
      "lifts the host's SELinux labels",
      "unmasks the host's /proc and /sys",
      'is not a setting the benchmark gives a container'
    ].entries()) {
      expect(places[i]).toContain(`${JSON.stringify(entries[i + 1])} `)
      expect(places[i]).toContain(why)
      expect(places[i]).toContain('`security_opt: !override [no-new-privileges:true]`')
    }
  })

  test('the keys of the nested tables exist in the schema', () => {
    const text = JSON.stringify(spec)
    for (const table of Object.values(NESTED_KEYS)) {
      for (const key of Object.keys(table)) expect(text).toContain(`"${key}"`)
    }
  })
})

test('the docs table lists every service key with its decision', () => {
  const docs = fs.readFileSync(path.join(__dirname, '..', 'docs', 'topology.md'), 'utf8')
  for (const [key, decision] of Object.entries(SERVICE_KEYS)) {
    const word = typeof decision === 'object' ? 'refused' : decision
    expect(docs).toMatch(new RegExp(`^\\| \`${key}\` \\| ${word}`, 'm'))
  }
})

describe('every key the benchmark runs is in a file the Docker and Swarm tests run', () => {
  type Obj = Record<string, unknown>
  const keysOf = (v: unknown): string[] =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : []
  // compose-keys-docker.test.ts runs compose.yaml; compose-keys-swarm.test.ts runs swarm.yaml.
  const services = ['compose.yaml', 'swarm.yaml'].flatMap(name => {
    const file = path.join(__dirname, 'fixtures', 'compose-keys', name)
    const data = yamlData(fs.readFileSync(file, 'utf8'), file) as { services: Obj }
    return Object.values(data.services) as Obj[]
  })
  /** The keys found at each nested table's place, over every service. */
  const at = (s: Obj): Record<string, unknown[]> => {
    const deploy = (s.deploy ?? {}) as Obj
    const resources = (deploy.resources ?? {}) as Obj
    return {
      deploy: [deploy],
      'deploy.resources': [resources],
      'deploy.resources.limits': [resources.limits],
      'deploy.placement': [deploy.placement],
      build: [s.build],
      network: Object.values((s.networks && !Array.isArray(s.networks) ? s.networks : {}) as Obj)
    }
  }
  const runs = (table: Record<string, unknown>) =>
    Object.keys(table).filter(k => typeof table[k] === 'string')

  test('service keys, honoured or ignored', () => {
    const present = new Set(services.flatMap(keysOf))
    expect(runs(SERVICE_KEYS).filter(k => !present.has(k))).toEqual([])
  })

  test.each(Object.keys(NESTED_KEYS))('the keys of %s, honoured or ignored', table => {
    const present = new Set(services.flatMap(s => at(s)[table].flatMap(keysOf)))
    expect(runs(NESTED_KEYS[table]).filter(k => !present.has(k))).toEqual([])
  })
})
