/**
 * The repository as a published action: its own workflows (CI, dogfooding with `uses: ./`,
 * release), LICENSE and CHANGELOG. The workflows cannot run here; they are checked for what they
 * must do, and the dogfooding step's inputs go through the action's own validation.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
import { parseInputs } from '../src/config/inputs'

const root = path.join(__dirname, '..')
const dir = path.join(root, '.github', 'workflows')
const read = (file: string) => parse(fs.readFileSync(path.join(dir, file), 'utf8'))
const action = parse(fs.readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, unknown>
}
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, string>
}
type Workflow = { on: Record<string, unknown>; jobs: Record<string, { steps: Step[] }> }
const steps = (wf: Workflow): Step[] => Object.values(wf.jobs).flatMap(j => j.steps)
const scripts = (wf: Workflow): string =>
  steps(wf)
    .map(s => s.run ?? '')
    .join('\n')

const files = fs.readdirSync(dir).filter(f => /\.ya?ml$/.test(f))

/** `with:` keys of the workflow's `uses: ./` steps that action.yml does not declare. */
const unknownInputs = (wf: Workflow): string[] =>
  steps(wf)
    .filter(s => s.uses === './')
    .flatMap(s => Object.keys(s.with ?? {}))
    .filter(key => !(key in action.inputs))

test('there are CI, dogfooding and release workflows, each valid YAML with jobs of steps', () => {
  expect(files.sort()).toEqual(['ci.yml', 'dogfood.yml', 'release.yml'])
  for (const f of files) {
    const wf = read(f) as Workflow
    expect(Object.keys(wf.on).length).toBeGreaterThan(0)
    expect(Object.keys(wf.jobs).length).toBeGreaterThan(0)
    for (const job of Object.values(wf.jobs)) expect(job.steps.length).toBeGreaterThan(0)
  }
})

test('every `uses: ./` step passes only inputs action.yml declares', () => {
  const own = files.filter(f => steps(read(f)).some(s => s.uses === './'))
  expect(own).toEqual(['dogfood.yml'])
  for (const f of files) expect({ f, unknown: unknownInputs(read(f)) }).toEqual({ f, unknown: [] })
  // The check itself: a misspelt input is caught.
  const misspelt = {
    on: { push: null },
    jobs: { j: { steps: [{ uses: './', with: { case: '1' } }] } }
  }
  expect(unknownInputs(misspelt)).toEqual(['case'])
})

test('CI runs the README test command on pull requests and pushes, and checks dist/', () => {
  const ci = read('ci.yml') as Workflow
  expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['pull_request', 'push']))
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')
  expect(readme).toContain('npm ci && npm test')
  expect(scripts(ci)).toMatch(/npm ci && .*npm test/)
  expect(scripts(ci)).toContain('node scripts/bundle.mjs --outdir "$fresh"')
  expect(scripts(ci)).toContain('diff -r dist "$fresh"')
})

test('dogfooding runs the action from this checkout with inputs the action accepts', () => {
  const wf = read('dogfood.yml') as Workflow
  expect(Object.keys(wf.on)).toEqual(expect.arrayContaining(['push', 'pull_request']))
  const own = steps(wf).filter(s => s.uses === './')
  expect(own).toHaveLength(1)
  // The values as the runner hands them over: strings, validated by the action's own schema.
  const raw = Object.fromEntries(Object.entries(own[0].with ?? {}).map(([k, v]) => [k, String(v)]))
  const inputs = parseInputs(raw)
  expect(inputs['gh-pages-branch']).toBe('gh-pages')
  expect(inputs['history-repository']).toBeNull()
  const checkout = steps(wf).find(s => s.uses?.startsWith('actions/checkout'))
  expect(checkout?.with).toMatchObject({ 'fetch-depth': 0 })
})

test('release tags vX.Y.Z from package.json and CHANGELOG, and moves the major tag', () => {
  const wf = read('release.yml') as Workflow
  expect(Object.keys(wf.on)).toEqual(['workflow_dispatch'])
  const run = scripts(wf)
  expect(run).toContain('git tag -a "v$VERSION"')
  expect(run).toContain('major="v${VERSION%%.*}"')
  expect(run).toContain('git tag -fa "$major"')
  expect(run).toContain('git push --force origin "$major"')
  expect(run).toContain('diff -r dist "$fresh"')
  // Only a commit whose CI passed is tagged: its latest completed CI run is asked for.
  expect(run).toContain('actions/workflows/ci.yml/runs?head_sha=$sha&status=completed')
  expect(run).toContain('[[ "$latest" == success ]]')
  expect((wf as unknown as { permissions: Record<string, string> }).permissions).toMatchObject({
    contents: 'write',
    actions: 'read'
  })
  // The major tag the README tells users to write is the one the release moves.
  const major = `v${pkg.version.split('.')[0]}`
  expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(`@${major}`)
})

test('LICENSE is the MIT licence package.json names; CHANGELOG has the current version', () => {
  expect(pkg.license).toBe('MIT')
  expect(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/)
  const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8')
  expect(changelog).toContain(`\n## [${pkg.version}]\n`)
})

test('dist/licenses.txt names every bundled third-party package with its licence text', () => {
  const text = fs.readFileSync(path.join(root, 'dist', 'licenses.txt'), 'utf8')
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'))
  for (const name of ['zod', 'dockerode', 'handlebars', 'yaml', '@actions/core']) {
    const version = lock.packages[`node_modules/${name}`].version
    expect(text).toMatch(new RegExp(`^${name.replace('/', '\\/')}@${version} \\(`, 'm'))
  }
  // Each licence text once: packages that ship the same text (e.g. @stdlib's) share a section.
  const sections = text.split(`\n${'-'.repeat(72)}\n`).length
  const packages = text.match(/^\S+@\d\S* \(.*\)$/gm)!.length
  expect(sections).toBeLessThan(packages)
})
