/**
 * Compose secrets and configs from a file, a variable or inline `content`, as native mounts; and
 * how each engine hands them over: Docker as a bind mount or a file written before the start,
 * Swarm as secrets and configs of its own (a file Swarm cannot hold stays a bind mount). Pure,
 * but for the files the Swarm side reads.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { mountSpecs, textFiles } from '../src/engine/docker/volumes'
import { emptyTextProblem, handedContent } from '../src/engine/swarm/files'
import { swarmServiceSpec } from '../src/engine/swarm/spec'
import type { ServicePlan } from '../src/engine/plan/types'
import { MAX_HANDED_BYTES, type Mount } from '../src/topology/http-schema'
import { compileText, composeError } from './helpers/compose'
import { tmp } from './helpers/tmp'

/** A file with `secrets` and `configs` lines for `web`, and the top-level `tail`. */
const file = (lines: string, tail: string) => `
services:
  web:
    image: web:1
    expose: [80]
${lines}
x-latency-bench:
  load: { service: web }
${tail}`

const mountsOf = (data: Record<string, unknown>) =>
  (data.services as { mounts: Mount[] }[])[0].mounts

describe('Compose secrets and configs as mounts', () => {
  test('a file, a variable and inline content, each where Compose puts it', () => {
    const data = compileText(
      file(
        '    secrets: [pw, { source: key, target: api }]\n    configs: [{ source: c, target: /etc/c.conf }]',
        'secrets: { pw: { file: ./pw.txt }, key: { environment: API_KEY } }\nconfigs: { c: { content: "port ${PORT}" } }\n'
      ),
      { API_KEY: 'k-1', PORT: '81' },
      { 'pw.txt': 'x' }
    )
    const [pw, key, c] = mountsOf(data)
    expect(pw).toMatchObject({ type: 'bind', target: '/run/secrets/pw', as: 'secret' })
    expect(key).toEqual({ type: 'text', content: 'k-1', target: '/run/secrets/api', as: 'secret' })
    expect(c).toEqual({ type: 'text', content: 'port 81', target: '/etc/c.conf', as: 'config' })
  })

  test('a variable that is unset is refused, naming it and what to do', () => {
    const message = composeError(
      file('    secrets: [key]', 'secrets: { key: { environment: GLB_NOT_SET } }\n')
    )
    expect(message).toMatch(/services\.web\.secrets\.0/)
    expect(message).toMatch(/secret 'key' is the variable GLB_NOT_SET, which is unset: set it/)
  })

  test('a variable an empty string is a secret with nothing in it', () => {
    const data = compileText(file('    secrets: [key]', 'secrets: { key: { environment: K } }\n'), {
      K: ''
    })
    expect(mountsOf(data)[0]).toMatchObject({ type: 'text', content: '' })
  })

  test('text over what a Swarm secret holds is refused, counted in bytes', () => {
    const big = 'é'.repeat(MAX_HANDED_BYTES / 2 + 1)
    const message = composeError(
      file('    secrets: [key]', 'secrets: { key: { environment: K } }\n'),
      { K: big }
    )
    expect(message).toContain(`holds ${MAX_HANDED_BYTES + 2} bytes, over the ${MAX_HANDED_BYTES}`)
  })
})

/** A generic service with `mounts`, as a plan holds it. */
const service = (mounts: Mount[]): ServicePlan =>
  ({
    name: 'web',
    runs: 'image',
    instances: [{ name: 'web-0', env: {}, argv: null, entrypoint: null }],
    constraints: [],
    aliases: [],
    healthcheck: null,
    endpointMode: null,
    pinned: false,
    mounts,
    settings: null
  }) as unknown as ServicePlan

const at = { prefix: 'glb-x-c-0', labels: { a: 'b' } }

describe('the Docker engine', () => {
  test('text is no mount but a file written before the start, read-only', () => {
    const s = service([
      { type: 'text', content: 'k', target: '/run/secrets/api', as: 'secret' },
      { type: 'tmpfs', target: '/t' }
    ])
    expect(mountSpecs(at, s, 'web-0')).toEqual([{ Type: 'tmpfs', Target: '/t' }])
    expect(textFiles(s)).toEqual([
      { name: 'run/secrets/api', content: Buffer.from('k'), mode: 0o444 }
    ])
  })
})

describe('the Swarm engine', () => {
  const dir = tmp()
  const write = (name: string, content: string | Buffer) => {
    fs.writeFileSync(path.join(dir, name), content)
    return path.join(dir, name)
  }
  const bind = (source: string): Mount => ({
    type: 'bind',
    source,
    target: '/run/secrets/x',
    readOnly: true,
    as: 'secret'
  })

  test('a secret file is handed over with its content; what Swarm cannot hold stays a bind', () => {
    expect(handedContent(bind(write('pw', 'pw')))).toEqual({
      content: Buffer.from('pw'),
      as: 'secret'
    })
    const stays = (m: Mount) => (handedContent(m) as { stays: string }).stays
    expect(stays(bind(dir))).toMatch(/stays a bind mount at \/run\/secrets\/x: it is a directory/)
    expect(stays(bind(write('empty', '')))).toMatch(/it is empty/)
    const over = Buffer.alloc(MAX_HANDED_BYTES + 1, 'a')
    expect(stays(bind(write('big', over)))).toMatch(`holds ${MAX_HANDED_BYTES + 1} bytes`)
    // A plain bind mount, a volume and a tmpfs are none of Swarm's.
    expect(handedContent({ type: 'bind', source: dir, target: '/d', readOnly: true })).toBeNull()
    expect(handedContent({ type: 'volume', target: '/v' })).toBeNull()
  })

  test('handed mounts become references, the rest stay mounts', () => {
    const s = service([
      bind(write('pw2', 'pw')),
      { type: 'tmpfs', target: '/t' },
      { type: 'text', content: 'c', target: '/etc/c', as: 'config' }
    ])
    const spec = swarmServiceSpec(s, {
      name: 'glb-x-c-0-web',
      image: 'web:1',
      labels: {},
      network: 'n',
      cpus: null,
      memoryBytes: null,
      volumes: at,
      pinnedTo: null,
      endpointMode: 'dnsrr',
      startInterval: false,
      files: {
        secrets: [{ id: 's1', name: 'glb-x-c-0-secret0', target: '/run/secrets/x' }],
        configs: [{ id: 'c1', name: 'glb-x-c-0-config1', target: '/etc/c' }],
        handed: new Set([0, 2])
      }
    })
    const container = (spec.TaskTemplate as { ContainerSpec: Record<string, unknown> })
      .ContainerSpec
    expect(container.Mounts).toEqual([{ Type: 'tmpfs', Target: '/t' }])
    expect(container.Secrets).toEqual([
      {
        SecretID: 's1',
        SecretName: 'glb-x-c-0-secret0',
        File: { Name: '/run/secrets/x', UID: '0', GID: '0', Mode: 0o444 }
      }
    ])
    expect(container.Configs).toEqual([
      {
        ConfigID: 'c1',
        ConfigName: 'glb-x-c-0-config1',
        File: { Name: '/etc/c', UID: '0', GID: '0', Mode: 0o444 }
      }
    ])
  })

  test('an empty text is refused before anything is created, naming the service and the path', () => {
    const ok = service([{ type: 'text', content: 'v', target: '/a', as: 'secret' }])
    expect(emptyTextProblem([ok])).toBeNull()
    const empty = service([{ type: 'text', content: '', target: '/run/secrets/k', as: 'secret' }])
    expect(emptyTextProblem([ok, empty])).toBe(
      "service 'web' mounts an empty secret at /run/secrets/k, which a Swarm secret or config cannot be: give it a value, or run it with engine: docker"
    )
  })
})
