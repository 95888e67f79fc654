/**
 * Public Compose files of real projects (fixtures/compose-corpus: each source's files, licence
 * and README naming the repository, path and commit), each given only an `x-latency-bench` block
 * in a second file, as a user would, and loaded as a run loads them. Each file the benchmark
 * refuses is listed below with the key it refuses, so a change in either direction shows; every
 * refusal names its key and says what to do.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { TopologyError } from '../src/topology/errors'
import { readTopology } from '../src/topology/load'
import { yamlData } from '../src/topology/yaml'
import { tmp } from './helpers/tmp'

const CORPUS = path.join(__dirname, 'fixtures', 'compose-corpus')

const samples = fs
  .readdirSync(CORPUS, { withFileTypes: true })
  .filter(d => d.isDirectory())
  .flatMap(source =>
    fs
      .readdirSync(path.join(CORPUS, source.name))
      .filter(s => fs.existsSync(path.join(CORPUS, source.name, s, 'compose.yaml')))
      .map(s => `${source.name}/${s}`)
  )

type Obj = Record<string, unknown>

/** The checkout's files a service reads as env files, from its YAML. */
const envFilePaths = (services: Obj[]): string[] =>
  services.flatMap(s =>
    (Array.isArray(s?.env_file) ? s.env_file : s?.env_file ? [s.env_file] : []).map(f =>
      String(typeof f === 'string' ? f : (f as Obj).path)
    )
  )

/**
 * The checkout's paths a file mounts (bind sources, secret and config files) and the env files it
 * reads, from its YAML.
 */
function checkoutPaths(data: Obj): string[] {
  const services = Object.values((data.services ?? {}) as Obj) as Obj[]
  const volumes = services.flatMap(s => (Array.isArray(s?.volumes) ? s.volumes : []) as unknown[])
  const binds = volumes.flatMap(v => {
    const source = typeof v === 'string' ? v.split(':')[0] : String((v as Obj).source ?? '')
    return source.startsWith('.') && (typeof v === 'string' ? v.includes(':') : true)
      ? [source]
      : []
  })
  const files = (['secrets', 'configs'] as const).flatMap(k =>
    Object.values((data[k] ?? {}) as Obj).flatMap(e => {
      const file = (e as Obj | null)?.file
      return typeof file === 'string' ? [file] : []
    })
  )
  return [...binds, ...files, ...envFilePaths(services)]
}

/**
 * The sample as a checkout: its files in a work tree of their own, and each path it mounts or
 * reads that the corpus does not keep (the project's source trees, data and env files) present,
 * empty: a file where the name has an extension, else a directory.
 */
function checkout(sample: string): string {
  const dir = tmp()
  fs.cpSync(path.join(CORPUS, sample), dir, { recursive: true })
  fs.mkdirSync(path.join(dir, '.git'))
  const data = yamlData(fs.readFileSync(path.join(dir, 'compose.yaml'), 'utf8'), sample) as Obj
  for (const p of checkoutPaths(data)) {
    const at = path.resolve(dir, p)
    if (!at.startsWith(`${dir}${path.sep}`) || fs.existsSync(at)) continue
    if (/\.[A-Za-z0-9]+$/.test(path.basename(at))) {
      fs.mkdirSync(path.dirname(at), { recursive: true })
      fs.writeFileSync(at, '')
    } else fs.mkdirSync(at, { recursive: true })
  }
  return dir
}

/** The sample loaded with its bench file: its notes, or its refusal's lines. */
function loaded(sample: string): { refused: string[] | null; notes: string[] } {
  const dir = checkout(sample)
  try {
    const { notes } = readTopology(`${dir}/compose.yaml+${dir}/compose.bench.yaml`)
    return { refused: null, notes }
  } catch (err) {
    if (!(err instanceof TopologyError)) throw err
    return { refused: err.message.split('\n').slice(1), notes: [] }
  }
}

const loads = new Map(samples.map(s => [s, loaded(s)]))
const results = new Map([...loads].map(([s, l]) => [s, l.refused]))

test('the corpus: at least 30 files from at least three sources, each with its licence', () => {
  expect(samples.length).toBeGreaterThanOrEqual(30)
  const sources = [...new Set(samples.map(s => s.split('/')[0]))]
  expect(sources.length).toBeGreaterThanOrEqual(3)
  for (const source of sources) {
    const files = fs.readdirSync(path.join(CORPUS, source))
    expect(files.some(f => f.startsWith('LICENSE'))).toBe(true)
    const readme = fs.readFileSync(path.join(CORPUS, source, 'README.md'), 'utf8')
    for (const s of samples.filter(x => x.startsWith(`${source}/`))) {
      expect(readme).toContain(`\`${s.split('/')[1]}\``)
    }
  }
})

test('each sample adds only an x-latency-bench block', () => {
  for (const s of samples) {
    const bench = yamlData(fs.readFileSync(path.join(CORPUS, s, 'compose.bench.yaml'), 'utf8'), s)
    expect(Object.keys(bench as Obj)).toEqual(['x-latency-bench'])
  }
})

/**
 * The refused files and the place each is refused at first, each as the issue says it must be: the
 * Docker socket (13: a tool that drives the host's Docker: portainer, traefik, nginx-proxy's
 * docker-gen, nextcloud's proxy and its certificate companion, and a Flask sample that mounts it),
 * a path of the host outside the checkout (a home directory; n8n's data folder, with the socket
 * beside it), an external volume (2), the host's network (2), a fixed address on a network,
 * capabilities that reach into the host (cap_add, with sysctls beside them), and commands run in a
 * started container (post_start).
 */
const REFUSED: Record<string, string> = {
  'awesome-compose/minecraft': 'services.minecraft.volumes.0',
  'awesome-compose/pihole-cloudflared-DoH': 'services.cloudflared.networks.dns-net.ipv4_address',
  'awesome-compose/plex': 'services.plex.network_mode',
  'awesome-compose/portainer': 'services.portainer.volumes.0',
  'awesome-compose/traefik-golang': 'services.frontend.volumes.0',
  'awesome-compose/wireguard': 'services.wireguard.cap_add',
  'dockersamples/catalog-service-node': 'services.aws.post_start',
  'dockersamples/easy-http-routing-with-traefik-main': 'services.proxy.volumes.0',
  'dockersamples/easy-http-routing-with-traefik-native': 'services.proxy.volumes.0',
  'dockersamples/getting-started-todo-app': 'services.proxy.volumes.0',
  'dockersamples/python-flask-redis': 'services.web.volumes.0',
  'n8n-hosting/docker-caddy': 'services.caddy.volumes.0',
  'n8n-hosting/subfolder-with-ssl': 'services.traefik.volumes.0',
  'nextcloud-docker/with-nginx-proxy-mariadb-apache': 'services.proxy.volumes.4',
  'nextcloud-docker/with-nginx-proxy-mariadb-fpm': 'services.proxy.volumes.3',
  'nextcloud-docker/with-nginx-proxy-postgres-apache': 'services.proxy.volumes.3',
  'nextcloud-docker/with-nginx-proxy-postgres-fpm': 'services.proxy.volumes.3',
  'nginx-proxy/nginx-proxy-main': 'services.nginx-proxy.volumes.0',
  'nginx-proxy/nginx-proxy-separate-containers': 'services.dockergen.volumes.0',
  'paperless-ngx/ci-test': 'services.gotenberg.network_mode',
  'temporal-docker-compose/tls': 'services.elasticsearch.volumes.0'
}

/**
 * The files that read variables their checkout leaves unset (the project's README asks for an
 * `.env`): each loads as Compose loads it, the variable a blank string, with a note naming it.
 */
const BLANK: Record<string, string[]> = {
  'awesome-compose/postgresql-pgadmin': [
    'POSTGRES_USER',
    'POSTGRES_PW',
    'POSTGRES_DB',
    'PGADMIN_MAIL',
    'PGADMIN_PW'
  ]
}

test.each(samples)('%s: passes, or is refused at the place listed', sample => {
  const lines = results.get(sample)
  if (!(sample in REFUSED)) {
    expect(lines).toBeNull()
    return
  }
  expect(lines?.[0]).toMatch(new RegExp(`^ {2}at ${REFUSED[sample].replace(/\./g, '\\.')}[ :]`))
})

test('the share that passes', () => {
  const passed = [...results.values()].filter(r => r === null).length
  expect(passed).toBe(samples.length - Object.keys(REFUSED).length)
})

test('the files that leave variables unset, and only those, are warned of each one', () => {
  const noted = samples.filter(s => loads.get(s)!.notes.length)
  expect([...noted].sort()).toEqual(Object.keys(BLANK).sort())
  for (const s of noted) {
    const names = loads.get(s)!.notes.map(n => /^the variable (\w+) is not set: /.exec(n)?.[1])
    expect(names).toEqual(BLANK[s])
  }
})

test('every refusal names its key and says what to do', () => {
  const lines = [...results.values()].flatMap(r => r ?? [])
  for (const line of lines) {
    expect(line).toMatch(/^ {2}at services\.[\w.-]+|^ {2}at [a-z_]+\.[\w.-]+/)
    expect(line).toMatch(
      /: remove it|: remove external|remove the mount|set it in|mount a path of the checkout/
    )
  }
})
