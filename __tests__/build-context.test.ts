/**
 * A build context as Docker sends it: `.dockerignore` by Docker's rules (the documented examples),
 * the Dockerfile always sent, the run's output left out, each context read once per run.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as tar from 'tar-stream'
import {
  BuildContexts,
  contextTar,
  ignorePatterns,
  OUTSIDE_DOCKERFILE,
  readBuildContext,
  type BuildContext
} from '../src/engine/docker/build-context'
import { decodeTrace, TRACE, TraceLog } from '../src/engine/docker/buildkit'
import { tmp } from './helpers/tmp'

/** Writes `files` (name → content) under a fresh directory. */
function tree(files: Record<string, string>): string {
  const dir = tmp()
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), content)
  }
  return dir
}

const names = (c: BuildContext): string[] => c.entries.map(e => e.name)

/** The context's tar as name → content. */
async function untar(c: BuildContext): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = []
    stream.on('data', (d: unknown) => chunks.push(d as Buffer))
    stream.on('end', () => {
      out[header.name] = Buffer.concat(chunks).toString('utf8')
      next()
    })
  })
  await new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve)
    extract.on('error', reject)
    contextTar(c).pipe(extract as unknown as NodeJS.WritableStream)
  })
  return out
}

describe('.dockerignore by Docker’s rules', () => {
  const files = {
    Dockerfile: 'FROM scratch\n',
    'README.md': 'r',
    'README-secret.md': 's',
    'CHANGES.md': 'c',
    'tempa/x': 'a',
    tempb: 'b',
    'somedir/temporary.txt': 't',
    'somedir/subdir/temporary.txt': 't',
    'somedir/subdir/deeper/temp.txt': 't',
    'src/main.go': 'g',
    'src/pkg/util.go': 'g',
    'src/keep.txt': 'k'
  }
  const context = (ignore: string) =>
    names(readBuildContext(tree({ ...files, '.dockerignore': ignore }), 'Dockerfile'))

  test('comments, */temp*, */*/temp* and temp? (the reference’s example)', () => {
    const kept = context('# comment\n*/temp*\n*/*/temp*\ntemp?\n')
    expect(kept).not.toContain('somedir/temporary.txt')
    expect(kept).not.toContain('somedir/subdir/temporary.txt')
    expect(kept).not.toContain('tempa/x')
    expect(kept).not.toContain('tempb')
    // Neither pattern reaches three levels down.
    expect(kept).toContain('somedir/subdir/deeper/temp.txt')
  })

  test('** matches any number of directories', () => {
    const kept = context('**/*.go\n')
    expect(kept.filter(n => n.endsWith('.go'))).toEqual([])
    expect(kept).toContain('src/keep.txt')
  })

  test('exceptions: the last matching line decides', () => {
    const md = (ignore: string) => context(ignore).filter(n => n.endsWith('.md'))
    expect(md('*.md\n!README.md\n')).toEqual(['README.md'])
    expect(md('*.md\n!README*.md\nREADME-secret.md\n')).toEqual(['README.md'])
    expect(md('*.md\nREADME-secret.md\n!README*.md\n')).toEqual(['README-secret.md', 'README.md'])
  })

  test('an exception brings a file back from inside an ignored directory', () => {
    expect(context('src\n!src/keep.txt\n').filter(n => n.startsWith('src'))).toEqual([
      'src/keep.txt'
    ])
  })

  test('blank lines and comments are no patterns', () => {
    expect(ignorePatterns('# a comment\n\n  *.md  \r\n!README.md\n')).toEqual([
      '*.md',
      '!README.md'
    ])
  })
})

describe('what a context holds', () => {
  test('the Dockerfile goes even when ignored; .git and the run’s output never', async () => {
    const dir = tree({
      Dockerfile: 'FROM scratch\n',
      '.dockerignore': 'node_modules\nDockerfile\n',
      'app.py': 'print(1)\n',
      'node_modules/big/index.js': 'x'.repeat(10000),
      '.git/HEAD': 'ref: refs/heads/main\n',
      'out/result.json': '{}'
    })
    const c = readBuildContext(dir, 'Dockerfile', [path.join(dir, 'out')])
    expect(await untar(c)).toEqual({
      '.dockerignore': 'node_modules\nDockerfile\n',
      Dockerfile: 'FROM scratch\n',
      'app.py': 'print(1)\n'
    })
    expect(c.bytes).toBe(Object.values(await untar(c)).join('').length)
    expect(c.dockerfile).toBe('Dockerfile')
  })

  test('a Dockerfile outside its context travels inside it; <Dockerfile>.dockerignore wins', async () => {
    const root = tree({
      'docker/app.Dockerfile': 'FROM scratch\nCOPY . /\n',
      'docker/app.Dockerfile.dockerignore': '*.log\n',
      'src/.dockerignore': '*.txt\n',
      'src/a.txt': 'a',
      'src/b.log': 'b'
    })
    const c = readBuildContext(path.join(root, 'src'), '../docker/app.Dockerfile')
    expect(c.dockerfile).toBe(OUTSIDE_DOCKERFILE)
    expect(c.ignoreFile).toBe(path.join(root, 'docker/app.Dockerfile.dockerignore'))
    expect(Object.keys(await untar(c)).sort()).toEqual(
      ['.dockerignore', OUTSIDE_DOCKERFILE, 'a.txt'].sort()
    )
  })

  test('the hash follows what is sent: an ignored file or the run’s output changes nothing', () => {
    const dir = tree({ Dockerfile: 'FROM scratch\n', '.dockerignore': '*.log\n', 'a.py': '1' })
    const out = path.join(dir, 'out')
    const hash = () => readBuildContext(dir, 'Dockerfile', [out]).hash
    const first = hash()
    fs.writeFileSync(path.join(dir, 'debug.log'), 'noise')
    fs.mkdirSync(out)
    fs.writeFileSync(path.join(out, 'result.json'), '{}')
    expect(hash()).toBe(first)
    fs.writeFileSync(path.join(dir, 'a.py'), '2')
    expect(hash()).not.toBe(first)
  })

  test('a run reads each context once and says its size', () => {
    const dir = tree({ Dockerfile: 'FROM scratch\n', 'a.py': '1' })
    const lines: string[] = []
    const contexts = new BuildContexts([])
    const first = contexts.get(dir, 'Dockerfile', l => lines.push(l))
    fs.writeFileSync(path.join(dir, 'a.py'), '22')
    expect(contexts.get(dir, path.join(dir, 'Dockerfile'), l => lines.push(l))).toBe(first)
    expect(lines).toEqual([`build context ${dir}: 2 file(s), 14 B (no .dockerignore)`])
  })
})

describe('BuildKit’s trace', () => {
  // The proto the engine decodes with: a trace is encoded here as the daemon sends it.
  const type = TRACE
  const aux = (value: object) =>
    Buffer.from(type.encode(type.fromObject(value)).finish()).toString('base64')

  test('each step is logged once as it starts; the failed step and its output are kept', () => {
    const lines: string[] = []
    const trace = new TraceLog(l => lines.push(l))
    const step = { digest: 'sha256:1', name: '[2/2] RUN make', started: { seconds: 1 } }
    trace.add(decodeTrace(aux({ vertexes: [step] })))
    trace.add(decodeTrace(aux({ logs: [{ vertex: 'sha256:1', msg: Buffer.from('cc: no\n') }] })))
    trace.add(decodeTrace(aux({ vertexes: [{ ...step, error: 'exit code: 2' }] })))
    expect(lines).toEqual(['[2/2] RUN make'])
    expect(trace.failedStep).toBe('[2/2] RUN make')
    expect(trace.tail).toEqual(['[2/2] RUN make', '[2/2] RUN make cc: no'])
  })
})
