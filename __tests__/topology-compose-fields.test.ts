/**
 * The native fields a Compose file compiles to (issue 40): entrypoint, Docker's form of health check
 * as readiness, dependsOn conditions, build arguments and target, aliases, services without a port.
 * Their checks, their plans, and the container and Swarm specs they become: pure, no Docker.
 */
import { containerSpec } from '../src/engine/docker/spec'
import { lastCheck } from '../src/engine/docker/health'
import { serviceImageTag } from '../src/engine/docker/image'
import { runtimeProblem } from '../src/engine/docker/runtime'
import { httpPlan } from '../src/engine/plan/http'
import { swarmSettingsProblem } from '../src/engine/swarm/settings-check'
import { swarmServiceSpec } from '../src/engine/swarm/spec'
import type { ContainerAddressing } from '../src/topology/containers'
import { localEngineProblem, refusalPlace } from '../src/topology/http-check'
import { parseTopology, TopologyError } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'

const FILE = '/repo/bench/app.yml'

const app = `
id: app
name: an app with a database
kind: http
services:
  - name: db
    image: example/db:1
    entrypoint: [/bin/sh, -c]
    command: ['exec db --listen $$PORT']
    port: 5432
    ready: { healthcheck: { test: [CMD-SHELL, 'db-ping || exit 1'], intervalSec: 0.5, timeoutSec: 2, retries: 3, startPeriodSec: 1 } }
    aliases: [database, db.internal]
  - name: migrate
    image: example/app:1
    build: { context: ., dockerfile: Dockerfile, args: { VERSION: '2', BASE: slim }, target: tools }
    entrypoint: [migrate, --to, 'postgres://\${addr:db}/app']
    dependsOn: [{ service: db, condition: healthy }]
  - name: worker
    image: example/app:1
    command: [worker]
    dependsOn: [db]
  - name: api
    image: example/app:1
    command: [api, --port, '\${port}']
    port: 8080
    replicas: 2
    dependsOn: [{ service: migrate, condition: completed }, { service: db, condition: started }, worker]
load: { service: api }
`

const parse = (text: string): HttpTopology => {
  const t = parseTopology(text, FILE)
  if (t.kind !== 'http') throw new Error('not http')
  return t
}

/** The validation message for `app` with one piece replaced. */
const problem = (from: string, to: string): string => {
  const text = app.replace(from, () => to)
  expect(text).not.toBe(app)
  try {
    parseTopology(text, FILE)
  } catch (err) {
    expect(err).toBeInstanceOf(TopologyError)
    return (err as Error).message
  }
  throw new Error('parsed')
}

/** Docker's addressing: the service's name and its own port. */
const docker = (t: HttpTopology): ContainerAddressing => {
  const port = (s: string) => t.services.find(x => x.name === s)!.port ?? null
  return { port, addr: s => `${s}:${port(s)}`, addrs: s => [`${s}:${port(s)}`] }
}

describe('the fields a Compose file compiles to', () => {
  const t = parse(app)
  const plan = httpPlan(t, docker(t))
  const byName = new Map(plan.waves.flat().map(s => [s.name, s]))

  test('start order follows dependsOn in both forms; each condition reaches the plan', () => {
    expect(plan.waves.map(w => w.map(s => s.name))).toEqual([
      ['db'],
      ['migrate', 'worker'],
      ['api']
    ])
    expect(byName.get('api')!.after).toEqual([
      { service: 'migrate', condition: 'completed' },
      { service: 'db', condition: 'started' },
      { service: 'worker', condition: 'started' }
    ])
    expect(byName.get('migrate')!.after).toEqual([{ service: 'db', condition: 'healthy' }])
  })

  test('each service waits as it says: health check, one-shot exit 0, running, port', () => {
    const wait = (s: string) => byName.get(s)!.instances.map(i => i.wait)
    expect(wait('db')).toEqual([{ kind: 'healthcheck' }])
    // Without startIntervalSec, checks within the start period come every 5 s, as in Docker.
    expect(byName.get('db')!.healthcheck).toMatchObject({
      retries: 3,
      intervalSec: 0.5,
      startIntervalSec: 5
    })
    // A completed dependency is a one-shot job: its readiness is its exit 0.
    expect(wait('migrate')).toEqual([{ kind: 'completed' }])
    // No port and no ready: running is ready.
    expect(wait('worker')).toEqual([{ kind: 'running' }])
    expect(wait('api')).toEqual([{ kind: 'port' }, { kind: 'port' }])
    expect(byName.get('worker')!.instances[0].port).toBeNull()
  })

  test('entrypoints get placeholders filled, `$$` becomes `$`; aliases and build reach the plan', () => {
    expect(byName.get('migrate')!.instances[0].entrypoint).toEqual([
      'migrate',
      '--to',
      'postgres://db:5432/app'
    ])
    expect(byName.get('db')!.instances[0].argv).toEqual(['exec db --listen $PORT'])
    expect(byName.get('db')!.aliases).toEqual(['database', 'db.internal'])
    expect(byName.get('api')!.instances[0].entrypoint).toBeNull()
    const migrate = t.services.find(s => s.name === 'migrate')!
    expect(migrate.build).toMatchObject({ args: { VERSION: '2', BASE: 'slim' }, target: 'tools' })
  })

  test.each([
    [
      '{ service: db, condition: healthy }',
      '{ service: nosuch, condition: healthy }',
      /services\.1\.dependsOn\.0: no service named 'nosuch'/
    ],
    [
      '{ service: db, condition: healthy }',
      '{ service: db, condition: done }',
      /services\.1\.dependsOn\.0/
    ],
    [
      'command: [worker]',
      'command: [worker, --port, "${port}"]',
      /services\.2\.command\.2: \$\{port\}: 'worker' has no port/
    ],
    [
      'command: [worker]',
      'command: [worker, "${addr:migrate}"]',
      /services\.2\.command\.1: 'migrate' has no port, so it has no address/
    ],
    [
      'command: [worker]',
      'command: [worker]\n    environment: { ALL: "${addrs:worker}" }',
      /services\.2\.environment\.ALL: 'worker' has no port/
    ],
    [
      'command: [worker]',
      'command: [worker]\n    ready: { http: /healthz }',
      /services\.2\.ready\.http: 'worker' has no port to ask/
    ],
    ['load: { service: api }', 'load: { service: worker }', /load\.service: 'worker' has no port/],
    [
      "test: [CMD-SHELL, 'db-ping || exit 1']",
      'test: [CMD-SHELL, db-ping, now]',
      /services\.0\.ready\.healthcheck\.test: \['CMD', program, \.\.\.args\] or \['CMD-SHELL', 'a shell command'\]/
    ],
    ['retries: 3', 'retries: 0', /services\.0\.ready\.healthcheck\.retries/],
    [
      'startPeriodSec: 1',
      'startPeriodSec: 1, startIntervalSec: 0',
      /services\.0\.ready\.healthcheck\.startIntervalSec/
    ],
    [
      'aliases: [database, db.internal]',
      'aliases: ["data base"]',
      /services\.0\.aliases\.0: a DNS name/
    ],
    ['target: tools', 'target: "no stage"', /services\.1\.build\.target: a build stage name/],
    [
      'aliases: [database, db.internal]',
      'aliases: [database]\n    container: { capDrop: ["NET RAW"] }',
      /services\.0\.container\.capDrop\.0: a capability name/
    ],
    [
      'aliases: [database, db.internal]',
      'aliases: [database]\n    container: { pidsLimit: -2 }',
      /services\.0\.container\.pidsLimit/
    ],
    [
      'aliases: [database, db.internal]',
      'aliases: [database]\n    container: { noNewPrivileges: "yes" }',
      /services\.0\.container\.noNewPrivileges/
    ]
  ])('names the place of a bad field: %s → %s', (from, to, message) => {
    const msg = problem(from, to)
    expect(msg).toMatch(/^\/repo\/bench\/app\.yml: invalid topology:/)
    expect(msg).toMatch(message)
  })

  test('a port-free `$${port}` is a literal, not a placeholder', () => {
    const text = app.replace('command: [worker]', () => 'command: [worker, "$${port}"]')
    const worker = httpPlan(parse(text), docker(parse(text))).waves[1][1]
    expect(worker.instances[0].argv).toEqual(['worker', '${port}'])
  })

  test('refuses a cycle through the object form, naming it', () => {
    const text = app.replace('dependsOn: [db]', 'dependsOn: [{ service: api, condition: healthy }]')
    expect(() => parseTopology(text, FILE)).toThrow(
      /dependsOn forms a cycle: (worker → api → worker|api → worker → api)/
    )
  })

  test('the load cannot enter a one-shot job', () => {
    const text = app
      .replace('entrypoint: [migrate', 'port: 9000\n    entrypoint: [migrate')
      .replace('load: { service: api }', 'load: { service: migrate }')
    expect(() => parseTopology(text, FILE)).toThrow(
      /load\.service: 'migrate' is a dependency with condition completed/
    )
  })
})

describe('what the local engine refuses before anything starts', () => {
  /** A service the local engine runs as it is, plus `extra` under a second one. */
  const local = (extra: string, dependent = '') =>
    parse(`
id: l
name: l
kind: http
services:
  - name: front
    image: example/app:1
    command: [front]
    port: 8080
${dependent}
  - name: other
    image: example/app:1
${extra}
load: { service: front }
`)

  test('a topology of commands alone runs', () => {
    expect(localEngineProblem(local('    command: [other]'))).toBeNull()
  })

  test.each([
    ['    port: 9000', '', "services.1 ('other')", 'has no command'],
    [
      '    command: [x]\n    entrypoint: [sh]',
      '',
      "services.1.entrypoint ('other')",
      'has an entrypoint'
    ],
    [
      '    command: [x]\n    ready: { healthcheck: { test: [CMD, x], intervalSec: 1, timeoutSec: 1, retries: 1, startPeriodSec: 0 } }',
      '',
      "services.1.ready.healthcheck ('other')",
      "is ready by Docker's health check"
    ],
    [
      '    command: [x]',
      '    dependsOn: [{ service: other, condition: completed }]',
      "services.1 ('other')",
      'is a one-shot job (a dependency with condition completed)'
    ]
  ])('%s %s', (extra, dependent, place, why) => {
    const refused = localEngineProblem(local(extra, dependent))!
    expect(refusalPlace(refused)).toBe(place)
    expect(refused.problem).toBe(why)
  })
})

describe('the specs the engines create', () => {
  const t = parse(app)
  const plan = httpPlan(t, docker(t))
  const [db] = plan.waves[0]
  const migrate = plan.waves[1][0]
  const place = {
    name: 'glb-x-db-0',
    image: 'example/db:1',
    labels: { a: 'b' },
    network: 'net1',
    cpus: null,
    memoryBytes: null,
    volumes: { prefix: 'glb-x', labels: { a: 'b' } }
  }
  /** No secret or config handed to Swarm. */
  const files = { secrets: [], configs: [], handed: new Set<number>() }

  test('Docker: entrypoint, command, no health check of Docker, aliases on the network', () => {
    const spec = containerSpec(db, db.instances[0], place)
    expect(spec.Entrypoint).toEqual(['/bin/sh', '-c'])
    expect(spec.Cmd).toEqual(['exec db --listen $PORT'])
    // The engine runs db's check until it is ready; Docker runs none during the measurements.
    expect(spec.Healthcheck).toEqual({ Test: ['NONE'] })
    expect(spec.NetworkingConfig!.EndpointsConfig!.net1.Aliases).toEqual([
      'db-0',
      'db',
      'database',
      'db.internal'
    ])
    // Without an entrypoint the image's own stays; its HEALTHCHECK does not run.
    const worker = plan.waves[1][1]
    const plain = containerSpec(worker, worker.instances[0], place)
    expect(plain).not.toHaveProperty('Entrypoint')
    expect(plain.Healthcheck).toEqual({ Test: ['NONE'] })
  })

  test('Swarm: entrypoint as Command, health check on the ContainerSpec, aliases, one run per task', () => {
    const at = { ...place, pinnedTo: null, endpointMode: 'dnsrr', startInterval: false, files }
    const spec = swarmServiceSpec(db, at) as {
      TaskTemplate: {
        ContainerSpec: Record<string, unknown>
        RestartPolicy: unknown
        Networks: unknown
      }
      Mode: unknown
    }
    const { ContainerSpec, RestartPolicy, Networks } = spec.TaskTemplate
    expect(ContainerSpec).toMatchObject({
      Command: ['/bin/sh', '-c'],
      Args: ['exec db --listen $PORT']
    })
    // Swarm's task scheduling reads Docker's health state, so the check stays Docker's there.
    const check = {
      Test: ['CMD-SHELL', 'db-ping || exit 1'],
      Interval: 0.5e9,
      Timeout: 2e9,
      Retries: 3,
      StartPeriod: 1e9
    }
    expect(ContainerSpec.HealthCheck).toEqual(check)
    // A daemon of API 1.44 or later gets the start interval too (db's default, 5 s).
    const newer = swarmServiceSpec(db, { ...at, startInterval: true })
    expect(newer.TaskTemplate).toMatchObject({
      ContainerSpec: { HealthCheck: { ...check, StartInterval: 5e9 } }
    })
    expect(Networks).toEqual([{ Target: 'net1', Aliases: ['db', 'database', 'db.internal'] }])
    // A one-shot job is a replicated service whose tasks run once: no restart.
    const job = swarmServiceSpec(migrate, { ...at, pinnedTo: 'n1' })
    expect(job.TaskTemplate).toMatchObject({
      ContainerSpec: { Command: ['migrate', '--to', 'postgres://db:5432/app'] },
      RestartPolicy: { Condition: 'none' },
      Placement: { Constraints: ['node.id==n1'] }
    })
    expect(RestartPolicy).toEqual({ Condition: 'none' })
    expect(spec.Mode).toEqual({ Replicated: { Replicas: 1 } })
  })

  test('runtime: the container runs with it where the daemon can run it; refused before anything where it cannot', () => {
    const wasm = httpPlan(
      parse(
        app.replace(
          '    aliases: [database, db.internal]',
          '    aliases: [database, db.internal]\n    container: { runtime: io.containerd.wasmedge.v1 }'
        )
      ),
      docker(t)
    )
    const services = wasm.waves.flat()
    expect(containerSpec(services[0], services[0].instances[0], place).HostConfig!.Runtime).toBe(
      'io.containerd.wasmedge.v1'
    )
    expect(containerSpec(db, db.instances[0], place).HostConfig).not.toHaveProperty('Runtime')
    // A containerd shim's full name needs no registration: the daemon finds it on its PATH.
    expect(runtimeProblem(services, new Set(['runc']), false)).toBeNull()
    const named = (runtime: string) =>
      services.map((s, i) => (i ? s : { ...s, settings: { runtime } }))
    expect(runtimeProblem(named('crun'), new Set(['crun', 'runc']), false)).toBeNull()
    expect(runtimeProblem(named('kata'), new Set(['runc']), false)).toBe(
      "service 'db' runs with the runtime 'kata', which the Docker daemon does not have (it has: runc): register it in the daemon's configuration (\"runtimes\" in daemon.json), or remove it for the benchmark (`runtime: !reset null` in the file with x-latency-bench)"
    )
    expect(runtimeProblem(services, new Set(['runc']), true)).toMatch(
      /^service 'db' runs with the runtime 'io\.containerd\.wasmedge\.v1', and a Swarm service runs with the daemon's default one: run it with engine: docker, or remove it/
    )
    expect(runtimeProblem([db], new Set(), true)).toBeNull()
  })

  test('pidsLimit, capDrop, noNewPrivileges: the container’s and the Swarm service’s, refused before anything where the Swarm API lacks them', () => {
    const restricted = (settings: string) => {
      const p = httpPlan(
        parse(
          app.replace(
            '    aliases: [database, db.internal]',
            `    aliases: [database, db.internal]\n    container: ${settings}`
          )
        ),
        docker(t)
      )
      return p.waves.flat()
    }
    const [limited, ...rest] = restricted(
      '{ pidsLimit: 200, capDrop: [NET_RAW, CAP_MKNOD], noNewPrivileges: true }'
    )
    expect(containerSpec(limited, limited.instances[0], place).HostConfig).toMatchObject({
      PidsLimit: 200,
      CapDrop: ['NET_RAW', 'CAP_MKNOD'],
      SecurityOpt: ['no-new-privileges=true']
    })
    const at = { ...place, pinnedTo: null, endpointMode: 'dnsrr', startInterval: false, files }
    expect(swarmServiceSpec(limited, at).TaskTemplate).toMatchObject({
      ContainerSpec: {
        CapabilityDrop: ['NET_RAW', 'CAP_MKNOD'],
        Privileges: { NoNewPrivileges: true }
      },
      Resources: { Limits: { Pids: 200 } }
    })
    // Unlimited and the bit off: Docker is told so (overriding a daemon's default); Swarm, whose
    // defaults they are, gets nothing.
    const [open] = restricted('{ pidsLimit: -1, noNewPrivileges: false }')
    expect(containerSpec(open, open.instances[0], place).HostConfig).toMatchObject({
      PidsLimit: -1,
      SecurityOpt: ['no-new-privileges=false']
    })
    const openSwarm = swarmServiceSpec(open, at).TaskTemplate as {
      ContainerSpec: Record<string, unknown>
      Resources: { Limits: Record<string, unknown> }
    }
    expect(openSwarm.ContainerSpec).not.toHaveProperty('Privileges')
    expect(openSwarm.Resources.Limits).not.toHaveProperty('Pids')
    for (const key of ['PidsLimit', 'CapDrop', 'SecurityOpt']) {
      expect(containerSpec(db, db.instances[0], place).HostConfig).not.toHaveProperty(key)
    }
    // A daemon that would drop a field unread is refused, naming the service and what it lacks.
    const services = [limited, ...rest]
    expect(swarmSettingsProblem(services, '1.44')).toBeNull()
    expect(swarmSettingsProblem(services, '1.41')).toBe(
      "service 'db' asks for no-new-privileges, which a Swarm service takes from Engine API 1.44 (Docker 25) and this daemon speaks 1.41: run it with engine: docker, or remove it for the benchmark (`security_opt: !reset []` in the file with x-latency-bench)"
    )
    expect(swarmSettingsProblem(services, '1.40')).toMatch(
      /^service 'db' asks for a process limit, which a Swarm service takes from Engine API 1\.41 \(Docker 20\.10\)/
    )
    expect(swarmSettingsProblem(restricted('{ capDrop: [ALL] }'), '1.40')).toMatch(
      /asks for dropped capabilities/
    )
    expect(
      swarmSettingsProblem(restricted('{ pidsLimit: 0, noNewPrivileges: false }'), '1.24')
    ).toBeNull()
    expect(swarmSettingsProblem(plan.waves.flat(), '1.24')).toBeNull()
  })

  test("a build's tag changes with its arguments and target, not with their order", () => {
    const contextHash = 'a1b2c3'
    const plain = serviceImageTag({ dockerfile: 'Dockerfile' }, contextHash)
    const args = serviceImageTag(
      { dockerfile: 'Dockerfile', args: { A: '1', B: '2' } },
      contextHash
    )
    expect(new Set([plain, args]).size).toBe(2)
    expect(
      serviceImageTag({ dockerfile: 'Dockerfile', args: { B: '2', A: '1' } }, contextHash)
    ).toBe(args)
    expect(
      serviceImageTag({ dockerfile: 'Dockerfile', args: { A: '1', B: '3' } }, contextHash)
    ).not.toBe(args)
    const target = serviceImageTag({ dockerfile: 'Dockerfile', target: 'tools' }, contextHash)
    expect([plain, args]).not.toContain(target)
  })

  test("an unhealthy container's failure quotes its check's last run", () => {
    const run = { startSec: 3, exitCode: 1, output: 'db-ping: connection refused\n' }
    expect(lastCheck(run)).toBe('its health check exited 1: db-ping: connection refused')
    expect(lastCheck({ ...run, output: '' })).toBe('its health check exited 1 without output')
    expect(lastCheck({ ...run, exitCode: null, output: 'still waiting' })).toBe(
      'its health check timed out: still waiting'
    )
  })
})
