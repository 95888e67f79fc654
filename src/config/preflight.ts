import * as fs from 'node:fs'
import * as path from 'node:path'
import { dockerAvailable } from '../engine/docker'
import { gitIn } from '../history/git'
import { resolveTopology } from '../topology/load'
import type { Topology } from '../topology/schema'
import { caseList, InputError, type Inputs } from './inputs'

/**
 * Checks that need more than one input, the file system or the network, run before anything is
 * installed, started or written, so a bad input costs seconds and names itself instead of failing
 * after GNES was provisioned or the whole suite ran.
 */

/**
 * Upper bound of docs × doc-bytes, the payload the load client holds in memory at once (and each
 * service buffers per request): 2 GB, four times the standard load. Documented in action.yml.
 */
const MAX_PAYLOAD_BYTES = 2_000_000_000

type CaseFile = { file: string; topology: Topology }

const problem = (input: string, value: string | number, message: string): string =>
  `  input '${input}' = '${value}': ${message}`

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
function checkWritableDir(input: string, dir: string): void {
  const why = unwritableDir(dir)
  if (why) throw new InputError(`Invalid input:\n${problem(input, dir, `${input} ${why}`)}`)
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
  const template = inputs['readme-template']
  if (template && !fs.statSync(template, { throwIfNoEntry: false })?.isFile()) {
    problems.push(
      problem('readme-template', template, 'no such file (a Handlebars template is expected)')
    )
  }
  return problems
}

const BASE_INPUTS = ['baseline-gnes-version', 'baseline-image', 'baseline-topology'] as const

/**
 * Paired mode measures a base beside the head: exactly what differs must be said, and each base
 * input needs the head input it pairs with. In history mode a base input would be ignored, so it
 * is refused instead.
 */
function pairProblems(inputs: Inputs): string[] {
  const given = BASE_INPUTS.filter(name => inputs[name] !== null)
  const shown = (name: (typeof BASE_INPUTS)[number]): string => {
    const v = inputs[name]
    return Array.isArray(v) ? v.join(',') : String(v)
  }
  if (inputs.baseline === 'history') {
    return given.map(name =>
      problem(name, shown(name), `${name} is used only with baseline: paired`)
    )
  }
  const problems: string[] = []
  if (given.length === 0) {
    problems.push(
      problem(
        'baseline',
        'paired',
        'paired mode needs a base to measure beside the head: set baseline-gnes-version (vs gnes-version), baseline-image (vs image) or baseline-topology (vs topology or cases)'
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
  const topologies = inputs['baseline-topology']
  const cases = caseList(inputs)
  if (topologies !== null && topologies.length !== cases.length) {
    problems.push(
      problem(
        'baseline-topology',
        topologies.join(','),
        `lists ${topologies.length} files for ${cases.length} cases: one base topology per case, in the same order`
      )
    )
  }
  if (!inputs.profiles.some(p => p === 'minimal' || p === 'burst')) {
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

/**
 * Every check that needs no network: the load, the limits, the output directory, the README
 * template, a paired run's base, and every topology file (each error names its file). Returns the
 * resolved topologies of the head.
 */
export function checkRun(inputs: Inputs): CaseFile[] {
  const problems = [...loadProblems(inputs), ...pairProblems(inputs)]
  if (problems.length) throw new InputError(`Invalid input:\n${problems.join('\n')}`)
  inputs['baseline-topology']?.forEach(file => resolveTopology(file))
  const specs = caseList(inputs).map(c => resolveTopology(c))
  const input = inputs.topology ? 'topology' : 'cases'
  specs.forEach((s, i) => {
    const first = specs.findIndex(o => o.topology.id === s.topology.id)
    if (first !== i) {
      throw new InputError(
        `Invalid input:\n${problem(input, caseList(inputs).join(','), `${specs[first].file} and ${s.file} are both case '${s.topology.id}'`)}`
      )
    }
  })
  return specs
}

/**
 * `checkRun` for a paired run: each case of the head with the base it is measured beside, the
 * same topology unless `baseline-topology` names another.
 */
export function checkPairedRun(inputs: Inputs): { head: CaseFile; base: CaseFile }[] {
  const specs = checkRun(inputs)
  const bases = inputs['baseline-topology']?.map(file => resolveTopology(file))
  return specs.map((head, i) => ({ head, base: bases?.[i] ?? head }))
}

export interface HistoryTarget {
  /** A plain history directory the run writes into. */
  dir?: string
  /** A git repository (path or URL) whose branch keeps the history. */
  repository?: { url: string; token?: string }
}

/** A URL's user and password are credentials: never echo them back. */
const withoutCredentials = (url: string): string => url.replace(/^([a-z+]+:\/\/)[^/@]*@/i, '$1')

/**
 * `checkRun`, then what costs a round trip: Docker for limits under `engine: auto`, and the
 * history's repository (`git ls-remote`, a few hundred bytes) when the run will read or write it.
 */
export async function preflight(inputs: Inputs, history: HistoryTarget = {}): Promise<void> {
  checkRun(inputs)
  const limit = inputs.cpus !== null ? 'cpus' : inputs.memory !== null ? 'memory' : null
  if (limit && inputs.engine === 'auto' && !(await dockerAvailable())) {
    throw new InputError(
      `Invalid input:\n${problem(limit, inputs[limit]!, `${limit} limits Docker containers, but no Docker daemon answers, so engine 'auto' would run local processes without it; start Docker or drop ${limit}`)}`
    )
  }
  if (history.dir) checkWritableDir('history-dir', history.dir)
  if (history.repository) {
    const { url, token } = history.repository
    try {
      await gitIn(process.cwd(), { token })(['ls-remote', '--heads', '--', url])
    } catch (err) {
      const why = (err as Error).message.split('\n').find(l => /fatal|error/i.test(l)) ?? ''
      throw new InputError(
        `Invalid input:\n${problem('history-repository', withoutCredentials(url), `cannot reach the history's repository: ${withoutCredentials(why.trim())}`)}`
      )
    }
  }
}
