/**
 * Every workflow this repository ships, checked by actionlint as GitHub would read it: its own
 * (.github/workflows) and the ones users copy (workflows/, README's Quick start), whose `uses:` of this action is
 * pointed at the checkout so actionlint also checks their `with:` keys against action.yml.
 * scripts/test.sh installs actionlint (a pinned release) when it is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { quickStartWorkflow, servicesWorkflow } from './helpers/readme'

const root = path.join(__dirname, '..')
const ACTION = 'your-org/gnes-latency-bench@v1'

function actionlint(): string {
  const candidates = [
    process.env.ACTIONLINT,
    path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin', 'actionlint'),
    ...(process.env.PATH ?? '').split(path.delimiter).map(d => path.join(d, 'actionlint'))
  ]
  const found = candidates.find(c => c && fs.existsSync(c))
  if (!found) throw new Error('actionlint not found: scripts/test.sh installs it (go install)')
  return found
}

/** A scratch repository: action.yml and dist/ at its root and the given workflows, `ACTION` made `./`. */
function repoWith(workflows: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glb-actionlint-'))
  // actionlint finds a project by its .git.
  execFileSync('git', ['init', '-q', dir])
  fs.copyFileSync(path.join(root, 'action.yml'), path.join(dir, 'action.yml'))
  // It also checks that the files action.yml runs exist.
  fs.symlinkSync(path.join(root, 'dist'), path.join(dir, 'dist'))
  fs.mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true })
  for (const [name, text] of Object.entries(workflows))
    fs.writeFileSync(path.join(dir, '.github', 'workflows', name), text.replaceAll(ACTION, './'))
  return dir
}

function lint(dir: string): { status: number | null; out: string } {
  // -shellcheck= and -pyflakes= : run: scripts are checked by their own tests, not by tools
  // a fresh machine may lack.
  const r = spawnSync(actionlint(), ['-shellcheck=', '-pyflakes=', '-no-color'], {
    cwd: dir,
    encoding: 'utf8'
  })
  return { status: r.status, out: `${r.stdout}${r.stderr}` }
}

const filesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter(f => /\.ya?ml$/.test(f))
      .map(f => [f, fs.readFileSync(path.join(dir, f), 'utf8')])
  )

test.each([
  ['.github/workflows', filesOf(path.join(root, '.github', 'workflows'))],
  ['workflows (the examples)', filesOf(path.join(root, 'workflows'))],
  [
    "README's Quick start",
    { 'latency.yml': quickStartWorkflow(), 'services.yml': servicesWorkflow() }
  ]
])('actionlint finds nothing in %s', (_name, files) => {
  expect(Object.keys(files).length).toBeGreaterThanOrEqual(2)
  const repo = repoWith(files)
  try {
    expect(lint(repo)).toEqual({ status: 0, out: '' })
  } finally {
    fs.rmSync(repo, { recursive: true, force: true })
  }
})

test('the check sees a misspelt input of this action and an untrusted title in a script', () => {
  const repo = repoWith({
    'bad.yml': [
      'on: pull_request',
      'jobs:',
      '  bench:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      `      - uses: ${ACTION}`,
      '        with:',
      '          case: 1',
      '      - run: echo "${{ github.event.pull_request.title }}"',
      ''
    ].join('\n')
  })
  try {
    const { status, out } = lint(repo)
    expect(status).toBe(1)
    expect(out).toMatch(/input "case" is not defined in action/)
    expect(out).toMatch(/"github.event.pull_request.title" is potentially untrusted/)
  } finally {
    fs.rmSync(repo, { recursive: true, force: true })
  }
})
