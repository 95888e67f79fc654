/**
 * Bad input through the real command line (the bundled CLI in a child process): each kind gets one
 * clear error naming the input or file, before anything is installed, started or written. The
 * GNES cache and the output directory point at fresh paths, so a run that got as far as
 * provisioning GNES or writing a result would leave them behind; Docker is pointed at nothing.
 */
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { buildCli } from './helpers/bundle'
import { git } from './fixtures/history/git'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-input-'))
const repo = path.join(__dirname, '..')
const case1 = fs.readFileSync(path.join(repo, 'topologies', 'case1.yml'), 'utf8')
const single = fs
  .readFileSync(path.join(repo, 'topologies', 'examples', 'http', 'single.yml'), 'utf8')
  .replace('../../../examples/services/relay', path.join(repo, 'examples', 'services', 'relay'))
let cli: string

beforeAll(async () => {
  cli = await buildCli()
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

interface Outcome {
  status: number | null
  stderr: string
  stdout: string
  /** Whatever the run left: the GNES cache and the output directory must not exist. */
  wrote: string[]
}

let n = 0
function cli$(args: string[], dir = fs.mkdtempSync(path.join(root, `run${n++}-`))): Outcome {
  const cache = path.join(dir, 'gnes-cache')
  const out = path.join(dir, 'out')
  const r = spawnSync(process.execPath, [cli, ...args.map(a => a.replace('{out}', out))], {
    cwd: dir,
    env: { ...process.env, GNES_BENCH_CACHE: cache, DOCKER_HOST: 'unix:///nonexistent.sock' },
    encoding: 'utf8',
    timeout: 60_000
  })
  return {
    status: r.status,
    stderr: r.stderr,
    stdout: r.stdout,
    wrote: [cache, out].filter(p => fs.existsSync(p))
  }
}

const file = (name: string, text: string): string => {
  const p = path.join(root, name)
  fs.writeFileSync(p, text)
  return p
}

/** A run refused up front: exit 1, one error, and nothing installed or written. */
function expectRefused(o: Outcome, ...patterns: RegExp[]): void {
  expect(o.status).toBe(1)
  expect(o.stderr.startsWith('error: ')).toBe(true)
  for (const p of patterns) expect(o.stderr).toMatch(p)
  expect(o.stdout).not.toMatch(/engine:|Provision/)
  expect(o.wrote).toEqual([])
}

describe('run refuses bad input before anything starts', () => {
  const notDir = file('a-file', 'not a directory')

  test.each<[string, string[], RegExp]>([
    [
      'docs above its bound',
      ['--docs', '100001'],
      /input 'docs' = '100001': docs must be at most 100000/
    ],
    [
      'docs × doc-bytes above the documented bound',
      ['--docs', '500', '--doc-bytes', '5000000'],
      /input 'doc-bytes' = '5000000': docs × doc-bytes = 2500000000 bytes exceeds the 2000000000 bytes/
    ],
    [
      'batch-size > docs',
      ['--docs', '5', '--batch-size', '10'],
      /input 'batch-size' = '10': batch-size must not exceed docs \(5\)/
    ],
    [
      'an unsupported GNES',
      ['--gnes-version', '0.0.99'],
      /input 'gnes-version' = '0.0.99': gnes-version must be a supported GNES release: 0\.0\.42/
    ],
    ['a case twice', ['--cases', '1,1'], /input 'cases' = '1,1': cases lists 1 more than once/],
    [
      'a threshold with a bad percentile',
      ['--thresholds', "{latency: ['p(0)<1ms']}"],
      /input 'thresholds\.latency\.0' = .*'p\(0\)<1ms': the percentile p\(0\) must be a number above 0/
    ],
    [
      "a topology file's threshold with an unknown unit",
      [
        '--topology',
        file('bad-threshold.yml', `${single}\nthresholds: { latency: ['med<5parsecs'] }\n`)
      ],
      /bad-threshold\.yml: invalid topology:\n {2}at thresholds\.latency\.0: 'med<5parsecs': unknown unit 'parsecs'/
    ],
    [
      'an empty topology item',
      ['--topology', 'a.yml,'],
      /input 'topology' = 'a.yml,': topology must be a comma-separated list without empty items/
    ],
    [
      'cpus on the local engine',
      ['--engine', 'local', '--cpus', '1'],
      /input 'cpus' = '1': cpus limits Docker containers; the local engine cannot apply it/
    ],
    [
      'memory on the local engine',
      ['--engine', 'local', '--memory', '1g'],
      /input 'memory' = '1g': memory limits Docker containers/
    ],
    [
      'cpus when auto finds no Docker',
      ['--cpus', '1'],
      /input 'cpus' = '1': cpus limits Docker containers, but no Docker daemon answers/
    ],
    [
      'an out-dir that is a file',
      ['--out-dir', notDir],
      /input 'out-dir' = '.*a-file': out-dir is a file, not a directory/
    ],
    [
      'an out-dir under a file',
      ['--out-dir', path.join(notDir, 'sub')],
      /input 'out-dir' = '.*sub': out-dir cannot be created: .*a-file is a file/
    ],
    [
      'a history-dir that is a file',
      ['--out-dir', '{out}', '--history-dir', notDir],
      /input 'history-dir' = '.*a-file': history-dir is a file, not a directory/
    ],
    [
      'an unreachable history repository',
      ['--out-dir', '{out}', '--history-repository', path.join(root, 'missing.git')],
      /input 'history-repository' = '.*missing\.git': cannot reach the history's repository: .*does not appear to be a git repository/
    ],
    [
      'a README template that is missing',
      ['--readme-template', 'nope.md'],
      /input 'readme-template' = 'nope\.md': no such file/
    ],
    [
      'a README template Handlebars cannot parse, naming its line',
      ['--readme-template', file('broken.hbs', '# {{title}}\n\n{{#each series}}\n{{name}\n')],
      /input 'readme-template' = '.*broken\.hbs': is not a Handlebars template: Parse error on line 4: Expecting/
    ],
    [
      'a README template that is a directory',
      ['--readme-template', root],
      /input 'readme-template' = '.*': is not a file \(a Handlebars template is expected\)/
    ],
    [
      'a history directory outside the branch',
      ['--history-repository', path.join(root, 'missing.git'), '--history-dir', '../up'],
      /input 'history-dir' = '\.\.\/up': history-dir '\.\.\/up' must be a path inside the branch/
    ],
    [
      'a branch name git refuses',
      ['--history-repository', path.join(root, 'missing.git'), '--gh-pages-branch', 'a..b'],
      /input 'gh-pages-branch' = 'a\.\.b': gh-pages-branch is not a name git takes for a branch/
    ],
    [
      'a topology file over the size bound, refused before it is read',
      ['--topology', file('huge.yml', `${case1}\ndescription: ${'x'.repeat(300_000)}\n`)],
      /huge\.yml: a topology file is at most 262144 bytes \(this one has \d+\)/
    ],
    [
      'more services than the bound',
      [
        '--topology',
        file(
          'many.yml',
          single.replace(
            /services:\n([\s\S]*?)load:/,
            (_, svc: string) =>
              `services:\n${Array.from({ length: 33 }, (__, i) => svc.replace('name: relay', `name: r${i}`)).join('')}load:`
          )
        )
      ],
      /many\.yml: invalid topology:\n {2}at services: at most 32 services/
    ],
    [
      'a load header value with CR/LF',
      [
        '--topology',
        file('crlf.yml', single.replace('content-type: application/json', 'x-a: "a\\r\\nb: c"'))
      ],
      /crlf\.yml: invalid topology:\n {2}at load\.headers\.x-a: no control characters/
    ],
    [
      'a build context that does not exist',
      [
        '--topology',
        file(
          'nocontext.yml',
          single.replace(path.join(repo, 'examples', 'services', 'relay'), 'no/such/dir')
        )
      ],
      /nocontext\.yml: at services\.0\.build\.context \('relay'\): .*no\/such\/dir is not a directory/
    ],
    [
      'a service without a command when engine auto finds no Docker',
      [
        '--topology',
        file('image-only.yml', single.replace('    command: [python3, relay.py]\n', ''))
      ],
      /input 'engine' = 'auto': no Docker daemon answers at .*, so engine 'auto' would run local processes, and .*image-only\.yml: service 'relay' has no command/
    ],
    ['a positional argument', ['5'], /run takes flags only, got the argument '5'/],
    ['an empty flag', ['--docs='], /--docs is empty; give it a value or leave it out/]
  ])('%s', (_, args, pattern) => {
    expectRefused(cli$(['run', '--out-dir', '{out}', ...args]), pattern)
  })

  test('a history branch an append would refuse is named before anything starts', () => {
    const bare = path.join(root, 'refused.git')
    const work = path.join(root, 'refused-work')
    fs.mkdirSync(work)
    git(root, 'init', '-q', '--bare', bare)
    git(work, 'init', '-q', '-b', 'gh-pages')
    fs.mkdirSync(path.join(work, 'benchmarks', 'index'), { recursive: true })
    fs.writeFileSync(
      path.join(work, 'benchmarks', 'index', '1.json'),
      '{"schema": "history-index@99"}\n'
    )
    git(work, 'add', '.')
    git(work, 'commit', '-qm', 'a history of a newer version')
    git(work, 'push', '-q', bare, 'gh-pages')
    expectRefused(
      cli$(['run', '--out-dir', '{out}', '--history-repository', bare]),
      /gh-pages:benchmarks\/index\/1\.json: invalid index/
    )
  })

  test('topology semantics, each error naming the file', () => {
    const unknown = file('unknown.yml', case1.replace('model: BaseRouter', 'model: NoSuchRouter'))
    expectRefused(
      cli$(['run', '--out-dir', '{out}', '--topology', unknown]),
      /unknown\.yml: invalid topology:\n {2}at services\.1\.model: unknown router class 'NoSuchRouter' \(known: BaseRouter/
    )
    // Router2 pushes back into Router1 instead of the frontend: responses never come back.
    const loop = file(
      'loop.yml',
      case1
        .replace('out: { socket: PUSH_BIND }', 'out: { socket: PUSH_CONNECT, peer: Router2 }')
        .replace(
          'in: { socket: PULL_CONNECT, peer: Router1 }\n    out: { socket: PUSH_CONNECT, peer: Frontend }',
          'in: { socket: PULL_BIND }\n    out: { socket: PUSH_CONNECT, peer: Frontend }'
        )
        .replace('out: { socket: PUSH_CONNECT, peer: Frontend }', 'out: { socket: PUSH_BIND }')
    )
    expectRefused(
      cli$(['run', '--out-dir', '{out}', '--topology', loop]),
      /loop\.yml: invalid topology:\n {2}at services\.\d: '\w+' never returns to 'Frontend'/
    )
    const bomb = file(
      'bomb.yml',
      [
        'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
        ...'bcdefghij'.split('').map((c, i) => {
          const prev = 'abcdefghij'[i]
          return `${c}: &${c} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`
        })
      ].join('\n')
    )
    expectRefused(
      cli$(['run', '--out-dir', '{out}', '--topology', bomb]),
      /bomb\.yml: not a plain YAML topology: .*alias/i
    )
    const copy = file('copy-of-1.yml', case1)
    expectRefused(
      cli$([
        'run',
        '--out-dir',
        '{out}',
        '--topology',
        `${copy},${path.join(__dirname, '..', 'topologies', 'case1.yml')}`
      ]),
      /input 'topology' = '.*': .*copy-of-1\.yml and .*case1\.yml are both case '1'/
    )
  })

  test('every command rejects positional arguments', () => {
    for (const cmd of ['compare', 'bisect', 'import-legacy', 'prune', 'render', 'cleanup']) {
      const o = cli$([cmd, 'stray'])
      expect(o.status).toBe(1)
      expect(o.stderr).toContain(`error: ${cmd} takes flags only, got the argument 'stray'`)
    }
  })
})

test('an empty flag value is an error in every command, e.g. prune --case=', () => {
  const o = cli$(['prune', '--history-dir', root, '--keep', '1', '--case='])
  expect(o.status).toBe(1)
  expect(o.stderr).toBe('error: --case is empty; give it a value or leave it out\n')
})

describe('errors print no raw control characters', () => {
  test('an ANSI escape in a damaged history file reaches the terminal as text', () => {
    const history = path.join(root, 'damaged')
    const entry = path.join(history, 'entries', '1', '2026-01', 'x.json')
    fs.mkdirSync(path.dirname(entry), { recursive: true })
    // Clear the screen, then red text: what a hostile or broken file could do to a terminal.
    fs.writeFileSync(entry, '\u001b[2J\u001b[31mboom\u0007\u009b1m')
    const o = cli$(['render', '--history-dir', history, '--out', '{out}'])
    expect(o.status).toBe(1)
    expect(o.stderr).toContain('damaged/entries/1/2026-01/x.json: not valid JSON')
    // eslint-disable-next-line no-control-regex
    expect(o.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    expect(o.stderr).toContain('\\x1b[2J')
    expect(o.wrote).toEqual([])
    // The same bytes as a flag value, through the input error.
    const flag = cli$(['run', '--out-dir', '{out}', '--engine', 'local\u001b[2J'])
    expect(flag.stderr).toContain("input 'engine' = 'local\\x1b[2J'")
    // eslint-disable-next-line no-control-regex
    expect(flag.stderr).not.toMatch(/\u001b/)
  })
})
