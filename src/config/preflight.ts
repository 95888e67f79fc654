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

/**
 * Every check that needs no network: the load, the limits, the output directory, the README
 * template and every topology file (each error names its file). Returns the resolved topologies.
 */
export function checkRun(inputs: Inputs): { file: string; topology: Topology }[] {
  const problems = loadProblems(inputs)
  if (problems.length) throw new InputError(`Invalid input:\n${problems.join('\n')}`)
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
