import * as path from 'node:path'
import { loadTopologyFile, parseTopology } from '../src/topology/load'
import {
  COMPOSE_FIXTURES,
  compileFiles,
  compileText,
  compileWithNotes,
  composeDir
} from './helpers/compose'

const TREE = path.join(COMPOSE_FIXTURES, 'tree')
const CHAIN = path.join(COMPOSE_FIXTURES, 'chain', 'docker-compose.yml')

type Service = Record<string, unknown> & { name: string }
const services = (t: Record<string, unknown>) => t.services as Service[]
const service = (t: Record<string, unknown>, name: string) =>
  services(t).find(s => s.name === name)!

/** A file with one service `web` holding `keys` (YAML lines, indented under it). */
const web = (keys: string, rest = '') => `
services:
  web:
    image: web:1
    expose: [80]
${keys
  .split('\n')
  .map(l => `    ${l}`)
  .join('\n')}
${rest}
x-latency-bench:
  load: { service: web }
`

describe('a Compose file as the native topology', () => {
  const tree = compileFiles([path.join(TREE, 'compose.yaml')], { FROM_HOST: 'from the host' })
  const caddy = service(tree, 'caddy')
  const leaf = service(tree, 'leaf')

  test('the bench block becomes id, name, load and hops; the id defaults to the file name', () => {
    expect(tree).toMatchObject({
      id: 'compose',
      name: 'tree of 2 behind Caddy',
      kind: 'http',
      load: { service: 'caddy', path: '/', status: [200] },
      hops: { json: 'hops' }
    })
    expect(tree.load).not.toHaveProperty('port')
  })

  test('image, command split as Compose splits it, the load port from the only ports entry', () => {
    expect(caddy.image).toBe('caddy:2')
    expect(caddy.command).toEqual(['caddy', 'reverse-proxy', '--from', ':80', '--to', 'leaf:8080'])
    expect(caddy.port).toBe(80)
  })

  test('build with args and target, beside the file; the image named as Compose names it', () => {
    expect(leaf.image).toBe('tree-leaf')
    expect(leaf.build).toEqual({
      context: path.join(TREE, 'leaf'),
      dockerfile: 'Dockerfile',
      args: { GREETING: 'hello $world' },
      target: 'runtime'
    })
  })

  test('env_file, then environment over it, host values for bare names, $ kept literal', () => {
    expect(leaf.environment).toEqual({
      PORT: '8080',
      MODE: 'fast',
      GREETING_TOO: 'hello $$world',
      COST: '$$5',
      FROM_HOST: 'from the host'
    })
  })

  test('healthcheck, depends_on conditions, replicas, limits, placement and aliases', () => {
    expect(leaf.ready).toEqual({
      healthcheck: {
        test: ['CMD', 'wget', '-qO-', 'http://localhost:8080/healthz'],
        intervalSec: 1,
        timeoutSec: 0.5,
        retries: 5,
        startPeriodSec: 90,
        startIntervalSec: 5
      }
    })
    expect(caddy.dependsOn).toEqual([{ service: 'leaf', condition: 'healthy' }])
    expect(leaf.replicas).toBe(2)
    expect(leaf.resources).toEqual({ cpus: 0.1, memory: '64M' })
    expect(leaf.deploy).toEqual({ placement: { constraints: ['node.labels.zone==b'] } })
    expect(leaf.aliases).toEqual(['leaves'])
  })

  test('keys that change nothing measured are dropped', () => {
    expect(leaf).not.toHaveProperty('restart')
    expect(leaf).not.toHaveProperty('labels')
  })

  test('an unset variable reads as a blank string, as in Compose, with a note naming it', () => {
    const { data, notes } = compileWithNotes(
      web(
        'environment: ["TOKEN=${TOKEN}", "MODE=$MODE", "LEVEL=${LEVEL:-info}"]\nenv_file: web.env'
      ),
      {},
      { '.env': 'FROM_DOTENV=${MODE}', 'web.env': 'EXTRA=${TOKEN}x' }
    )
    expect(service(data, 'web').environment).toEqual({
      TOKEN: '',
      MODE: '',
      LEVEL: 'info',
      EXTRA: 'x'
    })
    expect(notes).toHaveLength(2)
    // Where the places lie in several files (here an env file), each names its file.
    expect(notes[0]).toMatch(
      /^the variable MODE is not set: it reads as a blank string, as in Compose \(at \.env \(in .*compose\.yaml\), services\.web\.environment\.1 \(in /
    )
    expect(notes[1]).toMatch(
      /^the variable TOKEN is not set: .*services\.web\.environment\.0 .*services\.web\.env_file\.0 \(in .*web\.env\)/
    )
    expect(notes.join('\n')).toContain(
      'set it in the environment or .env, or write ${TOKEN:-default}'
    )
  })

  test('the process environment wins over .env', () => {
    const t = compileFiles([path.join(TREE, 'compose.yaml')], { GREETING: 'hi', LEAF_PORT: '81' })
    expect(service(t, 'leaf').build).toMatchObject({ args: { GREETING: 'hi' } })
    expect(service(t, 'leaf').port).toBe(81)
    expect(service(t, 'leaf').environment).toMatchObject({ PORT: '81', GREETING_TOO: 'hi' })
  })
})

describe('files merged in order', () => {
  const merged = compileFiles([
    path.join(TREE, 'compose.yaml'),
    path.join(TREE, 'compose.bench.yaml')
  ])

  test('mappings merge, scalars and command are replaced, sequences are appended', () => {
    const leaf = service(merged, 'leaf')
    const caddy = service(merged, 'caddy')
    expect(merged.id).toBe('tree4')
    expect(leaf.replicas).toBe(4)
    expect(leaf.environment).toMatchObject({ PORT: '8080', MODE: 'slow', COST: '$$5' })
    expect(caddy.command).toEqual(['caddy', 'run', '--config', '/etc/caddy/Caddyfile'])
    expect(caddy.resources).toEqual({ cpus: 0.1, memory: '128M' })
    // Two container ports after the append: a service other than the load's then declares none.
    expect(leaf).not.toHaveProperty('port')
    expect(merged.load).toEqual({ service: 'caddy', path: '/', status: [200] })
  })

  test('a later file replaces a string command with a list and keeps earlier keys', () => {
    const dir = composeDir({
      'a.yml': web('command: serve --fast\nenvironment: [A=1]'),
      'b.yml': 'services:\n  web:\n    command: [serve, --slow]\n    environment: { B: 2 }\n'
    })
    const t = compileFiles([path.join(dir, 'a.yml'), path.join(dir, 'b.yml')])
    expect(service(t, 'web')).toMatchObject({
      command: ['serve', '--slow'],
      environment: { A: '1', B: '2' }
    })
  })
})

describe('each honoured key in its forms', () => {
  test('command and entrypoint as strings and lists; a list is not split', () => {
    const s = service(
      compileText(web(`entrypoint: /bin/sh -c\ncommand: ['echo $$HOME', x]`)),
      'web'
    )
    expect(s.entrypoint).toEqual(['/bin/sh', '-c'])
    expect(s.command).toEqual(['echo $$HOME', 'x'])
  })

  test("an empty command is the image's own", () => {
    expect(service(compileText(web('command: []')), 'web')).not.toHaveProperty('command')
  })

  test('environment as a mapping: numbers, booleans and null', () => {
    const s = service(
      compileText(web('environment: { N: 3, B: true, FROM_HOST: null, UNSET_HERE: }'), {
        FROM_HOST: 'h'
      }),
      'web'
    )
    expect(s.environment).toEqual({ N: '3', B: 'true', FROM_HOST: 'h' })
  })

  test('a $ before neither a name, { nor $ stays a literal $, as Compose leaves it', () => {
    const s = service(compileText(web("environment: [PRICE=5$, 'SPACED=a $ b', ONE=$1]")), 'web')
    expect(s.environment).toEqual({ PRICE: '5$$', SPACED: 'a $$ b', ONE: '$$1' })
  })

  test('what only restricts a container: pids_limit, cap_drop, security_opt’s no-new-privileges', () => {
    const container = (keys: string) => service(compileText(web(keys)), 'web').container
    expect(
      container(
        'pids_limit: 200\ncap_drop: [NET_RAW, CAP_MKNOD]\nsecurity_opt: [no-new-privileges]'
      )
    ).toEqual({ pidsLimit: 200, capDrop: ['NET_RAW', 'CAP_MKNOD'], noNewPrivileges: true })
    // deploy.resources.limits.pids says the same; both may be given when they agree.
    expect(container('deploy: { resources: { limits: { pids: 64 } } }')).toEqual({ pidsLimit: 64 })
    expect(container("pids_limit: '64'\ndeploy: { resources: { limits: { pids: 64 } } }")).toEqual({
      pidsLimit: 64
    })
    expect(container('pids_limit: -1')).toEqual({ pidsLimit: -1 })
    // Docker's forms of the bit, read as Docker reads them; the last entry wins.
    for (const [entry, bit] of [
      ['no-new-privileges:true', true],
      ['no-new-privileges=true', true],
      ['no-new-privileges:1', true],
      ['no-new-privileges:false', false],
      ['no-new-privileges=False', false]
    ] as const) {
      expect(container(`security_opt: ['${entry}']`)).toEqual({ noNewPrivileges: bit })
    }
    expect(container('security_opt: [no-new-privileges, no-new-privileges:false]')).toEqual({
      noNewPrivileges: false
    })
    // Empty lists ask for nothing.
    expect(service(compileText(web('cap_drop: []\nsecurity_opt: []')), 'web')).not.toHaveProperty(
      'container'
    )
  })

  test('an optional env file may be missing; a list of files applies in order', () => {
    const s = service(
      compileText(
        web('env_file: [one.env, { path: gone.env, required: false }, two.env]'),
        {},
        { 'one.env': 'A=1\nB=1', 'two.env': 'B=2' }
      ),
      'web'
    )
    expect(s.environment).toEqual({ A: '1', B: '2' })
  })

  test('build as a string, scale, and service-level cpus and mem_limit', () => {
    const t = compileText(
      web('build: ./app\nscale: 3\ncpus: 0.5\nmem_limit: 1gb').replace('image: web:1', ''),
      {},
      { 'app/Dockerfile': 'FROM scratch\n' }
    )
    const s = service(t, 'web')
    expect(s.build).toEqual({ context: expect.stringMatching(/\/app$/), dockerfile: 'Dockerfile' })
    expect(s.image).toMatch(/-web$/)
    expect(s).toMatchObject({ replicas: 3, resources: { cpus: 0.5, memory: '1gb' } })
  })

  test('ports in short and long forms give container ports only', () => {
    const forms = [
      ["ports: ['127.0.0.1:8080:80/tcp']", 80],
      ["ports: ['[::1]:9000:90']", 90],
      ['ports: [{ target: 70, published: 7070 }]', 70],
      ['ports: [60]', 60]
    ] as const
    for (const [ports, port] of forms) {
      const s = service(compileText(web(ports).replace('expose: [80]', '')), 'web')
      expect(s.port).toBe(port)
    }
  })

  test('a range or a UDP port counts as what it is', () => {
    const range = compileText(
      web("ports: ['9000-9001']", '').replace(
        'load: { service: web }',
        'load: { service: web, port: 9001 }'
      )
    )
    expect(service(range, 'web').port).toBe(9001)
    const udp = compileText(web("ports: ['53:53/udp']"))
    expect(service(udp, 'web').port).toBe(80)
  })

  test('healthcheck: a string test is CMD-SHELL, Docker defaults fill in, disable and NONE turn it off', () => {
    const s = service(compileText(web("healthcheck: { test: 'curl -f localhost' }")), 'web')
    expect(s.ready).toEqual({
      healthcheck: {
        test: ['CMD-SHELL', 'curl -f localhost'],
        intervalSec: 30,
        timeoutSec: 30,
        retries: 3,
        startPeriodSec: 0,
        startIntervalSec: 5
      }
    })
    for (const off of ['healthcheck: { disable: true }', 'healthcheck: { test: [NONE] }']) {
      expect(service(compileText(web(off)), 'web')).not.toHaveProperty('ready')
    }
  })

  test('depends_on: short list, the three conditions, and an optional service that does not run', () => {
    const t = compileText(`
services:
  web:
    image: web:1
    expose: [80]
    depends_on:
      started: { condition: service_started }
      healthy: { condition: service_healthy }
      migrate: { condition: service_completed_successfully }
      debug: { condition: service_started, required: false }
  started: { image: a:1, depends_on: [migrate] }
  healthy: { image: a:1, healthcheck: { test: [CMD, ok] } }
  migrate: { image: a:1 }
  debug: { image: a:1, profiles: [debug] }
x-latency-bench:
  load: { service: web }
`)
    expect(service(t, 'web').dependsOn).toEqual([
      'started',
      { service: 'healthy', condition: 'healthy' },
      { service: 'migrate', condition: 'completed' }
    ])
    expect(service(t, 'started').dependsOn).toEqual(['migrate'])
    expect(services(t).map(s => s.name)).toEqual(['web', 'started', 'healthy', 'migrate'])
  })

  test('links: the linked service starts first, and its alias is one more name of it', () => {
    const t = compileText(`
services:
  web:
    image: web:1
    expose: [80]
    links: [db, 'cache:memo', 'queue:queue']
    depends_on: { cache: { condition: service_healthy } }
  db: { image: a:1 }
  cache: { image: a:1, healthcheck: { test: [CMD, ok] } }
  queue: { image: a:1, networks: { default: { aliases: [jobs] } } }
x-latency-bench:
  load: { service: web }
`)
    expect(service(t, 'web').dependsOn).toEqual([
      'db',
      'queue',
      { service: 'cache', condition: 'healthy' }
    ])
    expect(service(t, 'cache').aliases).toEqual(['memo'])
    expect(service(t, 'queue').aliases).toEqual(['jobs'])
    expect(service(t, 'db')).not.toHaveProperty('aliases')
    expect(() => compileText(web("links: ['ghost:g']"))).toThrow(
      /at services\.web\.links\.0: no service named 'ghost' runs: .*`links: !reset \[\]`/
    )
  })

  test('profiles: a service runs when COMPOSE_PROFILES activates one of its profiles', () => {
    const text = web('', '  tools: { image: t:1, profiles: [debug, ops] }')
    expect(services(compileText(text)).map(s => s.name)).toEqual(['web'])
    const active = compileText(text, { COMPOSE_PROFILES: 'ops' })
    expect(services(active).map(s => s.name)).toEqual(['web', 'tools'])
  })

  test('networks: aliases of every network, as one list; deploy.endpoint_mode', () => {
    const s = service(
      compileText(
        web(
          'networks: { front: { aliases: [a, b] }, back: { aliases: [b, c] }, plain: }\ndeploy: { endpoint_mode: dnsrr }'
        )
      ),
      'web'
    )
    expect(s.aliases).toEqual(['a', 'b', 'c'])
    expect(s.deploy).toEqual({ placement: { constraints: [] }, endpoint_mode: 'dnsrr' })
  })

  test('anchors and merge keys share settings between services, as Compose files do', () => {
    const many = Array.from(
      { length: 30 },
      (_, i) => `  s${i}:\n    <<: *common\n    image: s:${i}\n`
    )
    const t = compileText(
      `x-common: &common\n  environment: { MODE: shared }\n  expose: [80]\nservices:\n${many.join('')}x-latency-bench:\n  load: { service: s0 }\n`
    )
    expect(services(t)).toHaveLength(30)
    expect(service(t, 's29')).toMatchObject({
      image: 's:29',
      environment: { MODE: 'shared' },
      port: 80
    })
  })

  test('healthcheck durations of 0 take Docker defaults', () => {
    const s = service(
      compileText(
        web('healthcheck: { test: [CMD, ok], interval: 0s, timeout: 2s, start_interval: 0s }')
      ),
      'web'
    )
    expect(s.ready).toMatchObject({
      healthcheck: { intervalSec: 30, timeoutSec: 2, startIntervalSec: 5 }
    })
  })

  test('healthcheck start_interval: checks within the start period come at its pace', () => {
    const hc =
      'healthcheck: { test: [CMD, ok], interval: 30s, start_period: 20s, start_interval: 1s }'
    expect(service(compileText(web(hc)), 'web').ready).toMatchObject({
      healthcheck: { intervalSec: 30, startPeriodSec: 20, startIntervalSec: 1 }
    })
  })

  test('the bench block: id, name from the project, minimal rate, description', () => {
    const t = compileText(
      `name: shop\n${web('').replace('load: { service: web }', 'load: { service: web }\n  id: shop-1\n  minimalRate: 20\n  description: the shop')}`
    )
    expect(t).toMatchObject({
      id: 'shop-1',
      name: 'shop',
      minimalRate: 20,
      description: 'the shop'
    })
  })
})

describe('where topology files are read', () => {
  test('a Compose file loads as a native topology, with the native defaults', () => {
    const t = loadTopologyFile(CHAIN)
    if (t.kind !== 'http') throw new Error('not http')
    expect(t.id).toBe('docker-compose')
    expect(t.minimalRate).toBe(20)
    expect(t.services.map(s => [s.name, s.dependsOn])).toEqual([
      ['peer1', ['peer2']],
      ['peer2', ['peer3']],
      ['peer3', ['peer4']],
      ['peer4', ['peer5']],
      ['peer5', []]
    ])
    expect(t.services[4].deploy).toEqual({ placement: { constraints: [] }, endpoint_mode: 'dnsrr' })
    expect(t.load).toMatchObject({ service: 'peer1', method: 'POST', body: '{}' })
  })

  test('files joined with + merge; a native file among them is refused', () => {
    const dir = composeDir({
      'a.yml': web(''),
      'b.yml': 'services:\n  web:\n    deploy: { replicas: 2 }\n',
      'native.yml': 'kind: http\n'
    })
    const t = loadTopologyFile(`${dir}/a.yml+${dir}/b.yml`)
    if (t.kind !== 'http') throw new Error('not http')
    expect(t.services[0].replicas).toBe(2)
    expect(() => loadTopologyFile(`${dir}/a.yml+${dir}/native.yml`)).toThrow(
      `${dir}/native.yml: only Compose files are merged`
    )
  })

  test("the native schema's own rules name the Compose service", () => {
    expect(() =>
      parseTopology(web('deploy: { resources: { limits: { memory: 1M } } }'), '/x/compose.yaml')
    ).toThrow(
      /compose.yaml: invalid topology:\n {2}at services.web \(as the native resources.memory\): at least 6M/
    )
  })
})
