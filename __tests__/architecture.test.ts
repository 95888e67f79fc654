/**
 * The one direction of docs/architecture.md, checked on every import of src/: a stage imports only
 * itself, the stages before it and the shared leaves; the pipeline sits on the stages, the front
 * ends on the pipeline.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as ts from 'typescript'

const src = path.join(__dirname, '..', 'src')

const STAGES = [
  'config',
  'topology',
  'engine',
  'client',
  'metrics',
  'result',
  'site',
  'store',
  'history',
  'trend',
  'judge',
  'render',
  'report'
]
const LEAVES = [
  'text',
  'stats',
  'inference',
  'profile',
  'traces',
  'log.ts',
  'paths.ts',
  'safe-write.ts'
]
const PIPELINE = STAGES.length + 1
const FRONT = PIPELINE + 1

/** A file's place: 0 for the leaves, 1.. for the stages in order, then the pipeline, then front ends. */
function rank(file: string): number {
  const top = path.relative(src, file).split(path.sep)[0]
  if (LEAVES.includes(top)) return 0
  if (STAGES.includes(top)) return STAGES.indexOf(top) + 1
  return top === 'pipeline' ? PIPELINE : FRONT
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return sources(p)
    return e.name.endsWith('.ts') ? [p] : []
  })
}

/** Files of src/ that `file` imports (types and re-exports too), resolved to their paths. */
function imports(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true)
  return importedFiles
    .map(i => i.fileName)
    .filter(spec => spec.startsWith('.'))
    .map(spec => {
      const base = path.resolve(path.dirname(file), spec)
      return fs.existsSync(`${base}.ts`) ? `${base}.ts` : path.join(base, 'index.ts')
    })
}

/** Packages that `file` imports. */
const packages = (file: string): string[] =>
  ts
    .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    .importedFiles.map(i => i.fileName)
    .filter(spec => !spec.startsWith('.'))

/** `from -> to` for every import of a later stage, of the pipeline or of a front end. */
function climbs(file: string, text?: string): string[] {
  return imports(file, text)
    .filter(to => rank(to) > rank(file))
    .map(to => `${path.relative(src, file)} -> ${path.relative(src, to)}`)
}

test('every stage imports only itself, earlier stages and the shared leaves', () => {
  const files = sources(src)
  expect(files.length).toBeGreaterThan(50)
  expect(files.flatMap(f => climbs(f))).toEqual([])
})

test('the check sees an import that climbs, a type-only one included', () => {
  const rel = (f: string) => path.join(src, f)
  expect(rank(rel('config/inputs.ts'))).toBeLessThan(rank(rel('engine/select.ts')))
  expect(rank(rel('judge/compare.ts'))).toBeLessThan(rank(rel('report/markdown.ts')))
  expect(rank(rel('report/markdown.ts'))).toBeLessThan(rank(rel('pipeline/index.ts')))
  expect(rank(rel('pipeline/index.ts'))).toBeLessThan(rank(rel('main.ts')))
  const probe = rel('config/probe.ts')
  const text = "import type {\n  Engine\n} from '../engine/types'\nexport * from '../text/escape'\n"
  expect(climbs(probe, text)).toEqual(['config/probe.ts -> engine/types.ts'])
})

test('the git object store knows nothing of the benchmark: it imports only itself and the leaves', () => {
  const store = path.join(src, 'store')
  const files = sources(store)
  expect(files.map(f => path.relative(src, f))).toContain(path.join('store', 'clone.ts'))
  const reached = files.flatMap(f => imports(f).filter(to => !to.startsWith(store) && rank(to) > 0))
  expect(reached.map(to => path.relative(src, to))).toEqual([])
})

test('the run both front ends make knows nothing of Actions: the action comes in through ports', () => {
  const actions = (file: string) =>
    ts
      .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
      .importedFiles.some(i => i.fileName.startsWith('@actions/'))
  const pipeline = sources(path.join(src, 'pipeline'))
  expect(pipeline.map(f => path.relative(src, f))).toContain(
    path.join('pipeline', 'run-benchmark.ts')
  )
  expect(pipeline.filter(actions)).toEqual([])
  // main.ts reads the inputs and calls the run; what it shows goes through action/'s ports.
  expect(actions(path.join(src, 'main.ts'))).toBe(false)
  expect(imports(path.join(src, 'main.ts'))).toContain(path.join(src, 'pipeline', 'index.ts'))
})

test('the engine knows nothing of Actions, and a plan nothing of the platforms that run it', () => {
  const engine = path.join(src, 'engine')
  expect(sources(engine).filter(f => packages(f).some(p => p.startsWith('@actions/')))).toEqual([])
  const plan = path.join(engine, 'plan')
  const topology = path.join(src, 'topology')
  const reached = sources(plan).flatMap(f => [
    ...packages(f),
    ...imports(f).filter(to => !to.startsWith(plan) && !to.startsWith(topology))
  ])
  expect(reached).toEqual([])
})

test('readiness kinds stand apart from the lifecycle and the platforms: each reads a started instance', () => {
  const engine = path.join(src, 'engine')
  const files = sources(path.join(engine, 'readiness'))
  expect(files.map(f => path.relative(src, f))).toContain(
    path.join('engine', 'readiness', 'index.ts')
  )
  const apart = ['lifecycle.ts', 'rollout.ts', 'placed.ts', 'local', 'docker', 'swarm'].map(p =>
    path.join(engine, p)
  )
  const reached = files.flatMap(f =>
    imports(f).filter(to => apart.some(a => to === a || to.startsWith(a + path.sep)))
  )
  expect(reached.map(to => path.relative(src, to))).toEqual([])
})

test('report/ only words what judge/ decides, and only the action calls GitHub', () => {
  const statistics = [path.join(src, 'stats'), path.join(src, 'inference')]
  const report = sources(path.join(src, 'report')).flatMap(f => [
    ...packages(f).filter(p => p.startsWith('@stdlib/') || p.startsWith('@actions/')),
    ...imports(f)
      .filter(to => statistics.some(dir => to.startsWith(dir)))
      .map(to => path.relative(src, to))
  ])
  expect(report).toEqual([])
  const action = path.join(src, 'action')
  const github = sources(src).filter(f => packages(f).includes('@actions/github'))
  expect(github.length).toBeGreaterThan(0)
  expect(github.filter(f => !f.startsWith(action))).toEqual([])
})

test('every statistical test lives in inference/: no p-value or critical value is taken elsewhere', () => {
  const inference = path.join(src, 'inference')
  const distributions = ['student-t.ts', 'normal.ts'].map(f => path.join(inference, f))
  const isDistribution = (p: string) =>
    p.startsWith('@stdlib/stats-base-dists-') || p.startsWith('@stdlib/math-base-special-erf')
  const files = sources(src)
  const reading = files.filter(f => packages(f).some(isDistribution))
  expect(reading.map(f => path.relative(src, f)).sort()).toEqual(
    distributions.map(f => path.relative(src, f)).sort()
  )
  const outside = files.filter(f => !f.startsWith(inference))
  const reached = outside.flatMap(f =>
    imports(f)
      .filter(to => distributions.includes(to))
      .map(to => `${path.relative(src, f)} -> ${path.relative(src, to)}`)
  )
  expect(reached).toEqual([])
  // The tests build on descriptive statistics only: no stage, and no rule of judge/.
  const above = sources(inference).flatMap(f =>
    imports(f).filter(to => !to.startsWith(inference) && !to.startsWith(path.join(src, 'stats')))
  )
  expect(above).toEqual([])
})
