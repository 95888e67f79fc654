import * as fs from 'node:fs'
import * as path from 'node:path'
import { DEFAULTS, InputError, type Inputs } from './inputs'
import { traitsOf } from '../profile/traits'

/**
 * Checks that need more than one input or the file system run before anything is installed,
 * started or written, so a bad input costs seconds and names itself instead of failing after GNES
 * was provisioned or the whole suite ran. The stages that read topologies, reach Docker or reach
 * git check those themselves, with `invalidInput`; src/pipeline/preflight.ts runs them all.
 */

/**
 * Upper bound of docs × doc-bytes, the payload the load client holds in memory at once (and each
 * service buffers per request): 2 GB, four times the standard load. Documented in action.yml.
 */
const MAX_PAYLOAD_BYTES = 2_000_000_000

const problem = (input: string, value: string | number, message: string): string =>
  `  input '${input}' = '${value}': ${message}`

/** The error of one bad input, worded alike by every stage's pre-flight check. */
export const invalidInput = (input: string, value: string | number, message: string): InputError =>
  new InputError(`Invalid input:\n${problem(input, value, message)}`)

/** Why `dir` cannot be a directory this run writes into, or null when it can. */
function unwritableDir(dir: string): string | null {
  let existing = path.resolve(dir)
  while (!fs.existsSync(existing)) existing = path.dirname(existing)
  if (!fs.statSync(existing).isDirectory()) {
    return existing === path.resolve(dir)
      ? 'is a file, not a directory'
      : `cannot be created: ${existing} is a file`
  }
  try {
    fs.accessSync(existing, fs.constants.W_OK | fs.constants.X_OK)
    return null
  } catch {
    return `is not writable (${existing} denies writing)`
  }
}

/** The output or history directory named by `input`; throws an InputError naming it. */
export function checkWritableDir(input: string, dir: string): void {
  const why = unwritableDir(dir)
  if (why) throw invalidInput(input, dir, `${input} ${why}`)
}

function loadProblems(inputs: Inputs): string[] {
  const problems: string[] = []
  const { docs } = inputs
  const batch = inputs['batch-size']
  const bytes = inputs['doc-bytes']
  if (batch > docs) {
    problems.push(problem('batch-size', batch, `batch-size must not exceed docs (${docs})`))
  }
  if (docs * bytes > MAX_PAYLOAD_BYTES) {
    problems.push(
      problem(
        'doc-bytes',
        bytes,
        `docs × doc-bytes = ${docs * bytes} bytes exceeds the ${MAX_PAYLOAD_BYTES} bytes the client may hold in memory`
      )
    )
  }
  for (const name of ['cpus', 'memory'] as const) {
    const value = inputs[name]
    if (value !== null && inputs.engine === 'local') {
      problems.push(
        problem(name, value, `${name} limits Docker containers; the local engine cannot apply it`)
      )
    }
  }
  const out = unwritableDir(inputs['out-dir'])
  if (out) problems.push(problem('out-dir', inputs['out-dir'], `out-dir ${out}`))
  problems.push(...sourceProblems(inputs))
  return problems
}

/** A GNES source tree is built with the shipped Dockerfile or into a local venv: a setup.py. */
function sourceProblems(inputs: Inputs): string[] {
  const source = inputs['gnes-source']
  if (source === null) return []
  const other = (['image', 'dockerfile'] as const).find(name => inputs[name] !== null)
  if (other) {
    return [
      problem(
        'gnes-source',
        source,
        `${other} and gnes-source both say where GNES comes from; set one`
      )
    ]
  }
  if (!fs.statSync(path.join(source, 'setup.py'), { throwIfNoEntry: false })?.isFile()) {
    return [problem('gnes-source', source, 'no setup.py there: a GNES source tree is expected')]
  }
  return []
}

const BASE_INPUTS = [
  'baseline-gnes-version',
  'baseline-image',
  'baseline-topology',
  'baseline-ref'
] as const

/** How paired mode runs, as opposed to what it compares: a value other than the default needs it. */
const PAIRED_SETTINGS = ['paired-deploy', 'paired-interleave'] as const

/**
 * Paired mode measures a base beside the head: exactly what differs must be said, and each base
 * input needs the head input it pairs with. In history mode a base input would be ignored, so it
 * is refused instead.
 */
function pairProblems(inputs: Inputs): string[] {
  const given = BASE_INPUTS.filter(name => inputs[name] !== null)
  if (inputs.baseline === 'history') return historyModeProblems(inputs, given)
  return [...baseProblems(inputs, given), ...pairedLoadProblems(inputs)]
}

type BaseInput = (typeof BASE_INPUTS)[number]

/** Paired mode's inputs set in history mode, which would ignore them. */
function historyModeProblems(inputs: Inputs, given: readonly BaseInput[]): string[] {
  const shown = (name: BaseInput): string => {
    const v = inputs[name]
    return Array.isArray(v) ? v.join(',') : String(v)
  }
  const ignored = given.map(name =>
    problem(name, shown(name), `${name} is used only with baseline: paired`)
  )
  const settings = PAIRED_SETTINGS.filter(name => inputs[name] !== DEFAULTS[name]).map(name =>
    problem(name, inputs[name], `${name} is used only with baseline: paired`)
  )
  const canary = inputs.canary
    ? [problem('canary', 'true', 'canary is used only with baseline: paired')]
    : []
  return [...ignored, ...settings, ...canary]
}

/** The base of a paired run (`given`: the base inputs set): one, said fully, with its head pair. */
function baseProblems(inputs: Inputs, given: readonly BaseInput[]): string[] {
  const problems: string[] = []
  if (given.length === 0) {
    problems.push(
      problem(
        'baseline',
        'paired',
        'paired mode needs a base to measure beside the head: set baseline-gnes-version (vs gnes-version), baseline-image (vs image), baseline-topology (vs topology or cases) or baseline-ref (a commit of this repository; on a pull request, its merge-base)'
      )
    )
  }
  const image = inputs['baseline-image']
  if (image !== null && inputs.image === null) {
    problems.push(
      problem(
        'baseline-image',
        image,
        "baseline-image pairs with image: set image to the head's image"
      )
    )
  }
  if (image !== null && inputs.engine === 'local') {
    problems.push(problem('baseline-image', image, 'the local engine runs no images'))
  }
  const version = inputs['baseline-gnes-version']
  if (version !== null && (inputs.image !== null || inputs.dockerfile !== null)) {
    problems.push(
      problem(
        'baseline-gnes-version',
        version,
        `${inputs.image !== null ? 'image' : 'dockerfile'} decides the head's GNES, so a GNES version cannot be its pair: use baseline-image`
      )
    )
  }
  return [...problems, ...refProblems(inputs, given)]
}

/** A commit as the base brings its own topologies and Dockerfile, and needs something to build. */
function refProblems(inputs: Inputs, given: readonly BaseInput[]): string[] {
  const ref = inputs['baseline-ref']
  if (ref === null) return []
  const problems: string[] = []
  const other = given.find(name => name !== 'baseline-ref')
  if (other) {
    problems.push(
      problem(
        'baseline-ref',
        ref,
        `the base is that commit's own topology files and Dockerfile; leave ${other} empty`
      )
    )
  }
  if (inputs.dockerfile === null && inputs['gnes-source'] === null && inputs.topology === null) {
    problems.push(
      problem(
        'baseline-ref',
        ref,
        "a commit's base needs what it builds: gnes-source or dockerfile (a GNES checkout), or topology files of this repository (their build contexts)"
      )
    )
  }
  return problems
}

/** One base topology per case, a profile that pairs, and runs enough for pairs. */
function pairedLoadProblems(inputs: Inputs): string[] {
  const problems: string[] = []
  const topologies = inputs['baseline-topology']
  const cases = inputs.topology ?? inputs.cases
  if (topologies !== null && topologies.length !== cases.length) {
    problems.push(
      problem(
        'baseline-topology',
        topologies.join(','),
        `lists ${topologies.length} files for ${cases.length} cases: one base topology per case, in the same order`
      )
    )
  }
  if (!inputs.profiles.some(p => traitsOf({ kind: p }).pairs !== null)) {
    problems.push(
      problem(
        'profiles',
        inputs.profiles.join(','),
        'paired mode pairs runs of the minimal profile (or else burst): list one of them'
      )
    )
  }
  if (inputs.runs < 2) {
    problems.push(
      problem('runs', inputs.runs, 'paired mode needs at least 2 runs a side (pairs) for its test')
    )
  }
  return problems
}

/** The load, the limits, the output directory, the README template and a paired run's base. */
export function checkInputs(inputs: Inputs): void {
  const problems = [...loadProblems(inputs), ...pairProblems(inputs)]
  if (problems.length) throw new InputError(`Invalid input:\n${problems.join('\n')}`)
}
