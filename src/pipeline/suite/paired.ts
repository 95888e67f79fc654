import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { Inputs } from '../../config/inputs'
import { checkPairedRun, warnCaseNotes } from '../preflight'
import { selectEngine } from '../../engine/select'
import { engineSettings } from '../engine-settings'
import type { Engine } from '../../engine/types'
import { consoleLog, type Log } from '../../log'
import type { CaseResult, GitMeta, Result } from '../../result/schema'
import type { CasePair } from '../../topology/cases'
import type { Topology } from '../../topology/schema'
import {
  abbaOrder,
  orderText,
  type Block,
  type Interleave,
  type Side
} from '../../client/interleave'
import { inSuite, suiteEngine, type SuiteFrame, type SuiteOptions } from './setup'
import { checkoutBase, checkoutPairs, checkoutPath } from '../base-checkout'
import { gitMeta } from '../../result/meta'
import { lookSchedule, type Sequence } from '../../judge/sequential'
import { PROFILE_KINDS } from '../../profile/definition'
import { isPairedKind, traitsOf } from '../../profile/traits'
import { pairedCase, type CaseLooks, type PairedProfile, type PairedSettings } from './paired-case'
import { pairSeconds, spendBudget } from './budget'
import { DRIVERS } from './drivers'
import { count } from '../../text/count'

/** The planned looks in a log line: `looks at 6, 9, 14, 21, 30 pairs`. */
const lookText = (looks: readonly number[]): string =>
  looks.length === 1 ? `${looks[0]} pairs` : `looks at ${looks.join(', ')} pairs`

/** Both sides of a paired run, the order their blocks ran in, and how long each case ran. */
export interface PairedRun {
  /** The head's result: what a push records, as in history mode. */
  head: Result
  /** Never recorded; the comparison and the result file's neighbour only. */
  base: Result
  /** The blocks of the first look (later looks continue the same pattern). */
  order: Block[]
  interleave: Interleave
  /** Per case, in the results' order: its pairs, planned looks and why it stopped. */
  sequences: Sequence[]
  /** Per case with `canary`: the base measured beside itself, `runs` pairs; else null. */
  canaries: (Record<Side, CaseResult> | null)[]
}

/**
 * The inputs the base is provisioned from, the one place a paired run makes inputs of its own
 * (the engine is chosen from inputs): the head's, on the head's engine, with the base's GNES or
 * image; a release as the base replaces the head's source tree. `moved` maps the head's
 * Dockerfile, build context and source tree to the base's (a commit's checkout has its own).
 */
export function baseInputs(
  inputs: Inputs,
  engine: Engine['kind'],
  moved: (file: string) => string = file => file
): Inputs {
  const move = (v: string | null): string | null => (v === null ? null : moved(v))
  return {
    ...inputs,
    engine,
    dockerfile: move(inputs.dockerfile),
    'docker-context': move(inputs['docker-context']),
    'gnes-version': inputs['baseline-gnes-version'] ?? inputs['gnes-version'],
    'gnes-source': inputs['baseline-gnes-version'] === null ? move(inputs['gnes-source']) : null,
    image: inputs['baseline-image'] ?? inputs.image
  }
}

/** The kind paired mode measures: the first of PROFILE_KINDS that pairs and is listed. */
const pairedKind = (inputs: Inputs): PairedProfile['kind'] | undefined =>
  PROFILE_KINDS.filter(isPairedKind).find(k => inputs.profiles.includes(k))

/**
 * The profile both sides are measured under (the first kind of PROFILE_KINDS that pairs and is
 * listed), from its driver: both sides get the same offered load.
 */
export function pairedProfile(inputs: Inputs, head: Topology, base: Topology): PairedProfile {
  const kind = pairedKind(inputs)
  if (kind === undefined) {
    throw new Error('paired mode needs a profile that pairs (checked before the run)')
  }
  return DRIVERS[kind].paired(inputs, head, base)
}

/**
 * Runs every case as a pair: the base (another GNES, image or topology) and the head measured in
 * this job, their runs interleaved (`paired-interleave`). Any failure stops both sides and throws: nothing
 * partial comes out.
 */
export async function runPairedSuite(
  inputs: Inputs,
  options: PairedOptions = {}
): Promise<PairedRun> {
  const pairs = options.pairs ?? checkPairedRun(inputs)
  const ref = inputs['baseline-ref']
  if (ref === null) return runSides(inputs, pairs, options)
  // The base is a commit of the workspace's repository, checked out beside it for this run.
  const workspace = options.workspace ?? process.env.GITHUB_WORKSPACE ?? process.cwd()
  const log = options.log ?? consoleLog
  const checkout = await log.group(`Check out the base: ${ref}`, () => checkoutBase(workspace, ref))
  try {
    log.info(`base: commit ${checkout.sha} in ${checkout.dir}`)
    const git = options.git ?? gitMeta()
    const checkedOut = checkoutPairs(pairs, workspace, checkout)
    warnCaseNotes(
      checkedOut.flatMap(p => (p.base === p.head ? [] : [p.base])),
      log
    )
    return await runSides(inputs, checkedOut, {
      ...options,
      moved: checkoutPath(workspace, checkout),
      baseGit: { ...git, sha: checkout.sha, ref }
    })
  } finally {
    await checkout.remove()
  }
}

interface PairedOptions extends SuiteOptions {
  baseSuiteId?: string
  pairs?: CasePair[]
  /** The repository whose commit `baseline-ref` names (default: GITHUB_WORKSPACE, else here). */
  workspace?: string
}

/** A base from a commit's checkout: the head's paths as the checkout's, and that commit. */
interface SidesOptions extends PairedOptions {
  moved?: (file: string) => string
  baseGit?: GitMeta
}

/** The engine of each side: the head's as a single suite's, the base's on the same platform. */
async function sideEngines(
  inputs: Inputs,
  options: SidesOptions,
  ids: Record<Side, string>,
  log: Log
): Promise<Record<Side, Engine>> {
  const head = await suiteEngine(inputs, options, ids.head, log)
  const base = await selectEngine(
    engineSettings(baseInputs(inputs, head.kind, options.moved), options.keepRunId),
    ids.base,
    log
  )
  return { base, head }
}

/**
 * Both sides: the head from `inputs`, the base from the base's GNES, image, or (`moved`) a
 * commit's Dockerfile, context and source tree; `pairs` hold each side's topology.
 */
async function runSides(
  inputs: Inputs,
  pairs: CasePair[],
  options: SidesOptions
): Promise<PairedRun> {
  const log = options.log ?? consoleLog
  const ids: Record<Side, string> = {
    head: options.suiteId ?? randomUUID(),
    // A run id of its own (Docker names containers by run id, case and deployment number); it is
    // also the base result's id, as the head's is the suite id.
    base: options.baseSuiteId ?? randomUUID()
  }
  const engines = await sideEngines(inputs, options, ids, log)
  const { base, head } = engines
  return inSuite(inputs, [base, head], log, async ({ load, settings: common, logDir, result }) => {
    const { settings, interleave, budgetSec } = pairedSettings(inputs, common, pairs.length)
    const order = abbaOrder(inputs.runs)
    const gnes = {
      base: await log.group(`Provision the base (${base.kind})`, () =>
        base.prepare(pairs.some(p => p.base.topology.kind === 'gnes'))
      ),
      head: await log.group(`Provision the head (${head.kind})`, () =>
        head.prepare(pairs.some(p => p.head.topology.kind === 'gnes'))
      )
    }
    const { cases, sequences, canaries } = await runCases(
      inputs,
      engines,
      pairs,
      settings,
      budgetSec,
      {
        load,
        logDir,
        log,
        order
      }
    )
    const sideResult = (side: Side): Result =>
      result({
        id: ids[side],
        engine: engines[side],
        gnes: gnes[side],
        cases: cases[side],
        git: side === 'base' ? (options.baseGit ?? options.git) : options.git
      })
    return {
      head: sideResult('head'),
      base: sideResult('base'),
      order,
      interleave,
      sequences,
      canaries
    }
  })
}

/** What the suite's cases share: their load, log and first look's order. */
type SuiteContext = Pick<SuiteFrame, 'load' | 'logDir'> & { log: Log; order: Block[] }

/** One case of the run: its pair, its profile, its looks and what a pair of it costs. */
interface RunCase {
  pair: CasePair
  profile: PairedProfile
  looks: CaseLooks
  /** A pair's cost on schedule (./budget.ts); null when unknown. */
  cost: number | null
}

/** Every case's first look, each followed by its canary, then the budget left (./budget.ts). */
async function runCases(
  inputs: Inputs,
  engines: Record<Side, Engine>,
  pairs: CasePair[],
  settings: PairedSettings,
  budgetSec: number,
  suite: SuiteContext
): Promise<Pick<PairedRun, 'sequences' | 'canaries'> & { cases: Record<Side, CaseResult[]> }> {
  const { log } = suite
  const runs: RunCase[] = pairs.map(pair => {
    const profile = pairedProfile(inputs, pair.head.topology, pair.base.topology)
    const dir = suite.logDir(pair.head.topology.id)
    const looks = pairedCase(engines, pair, profile, settings, suite.load, dir, log)
    return { pair, profile, looks, cost: pairSeconds(profile, suite.load, settings) }
  })
  const canaries = new Map<RunCase, Record<Side, CaseResult>>()
  await spendBudget(runs, budgetSec, {
    first: async run => {
      const { id, name } = run.pair.head.topology
      const skipped = inputs.profiles.filter(p => p !== run.profile.kind)
      if (skipped.length) {
        log.info(`paired mode measures ${run.profile.kind} only; not run: ${skipped.join(', ')}`)
      }
      await log.group(
        `Case ${id}: ${name}, paired on this runner (${orderText(suite.order, settings.interleave)}; ` +
          `A = base, B = head; ${lookText(settings.looks)})`,
        () => run.looks.first()
      )
      if (!inputs.canary) return
      await run.looks.pause()
      canaries.set(run, await canary(engines, run, settings, suite))
    },
    more: (run, share) =>
      log.group(
        `Case ${run.pair.head.topology.id}: more pairs, ${Math.round(share.sec)} s of the ` +
          `${Math.round(share.leftSec)} s left of paired-budget-minutes, shared by the ` +
          `${count(share.cases, 'case')} still undecided`,
        () => run.looks.more(share.sec)
      )
  })
  const results = runs.map(r => r.looks.result())
  return {
    cases: {
      base: results.map(r => r.sides.base),
      head: results.map(r => r.sides.head)
    },
    sequences: results.map(r => r.sequence),
    canaries: runs.map(r => canaries.get(r) ?? null)
  }
}

/**
 * How the pairs are taken, from the inputs and the suite's case settings, and the whole run's
 * budget for them (seconds).
 */
function pairedSettings(
  inputs: Inputs,
  common: SuiteFrame['settings'],
  cases: number
): { settings: PairedSettings; interleave: Interleave; budgetSec: number } {
  // Requests interleave only where they are paced: a burst hands every request over at once.
  const paired = pairedKind(inputs)
  const interleave: Interleave =
    paired && traitsOf({ kind: paired }).pairs === 'requests'
      ? inputs['paired-interleave']
      : 'blocks'
  const settings: PairedSettings = {
    ...common,
    redeploy: inputs['paired-deploy'] === 'per-pair',
    interleave,
    looks: lookSchedule(inputs.runs, inputs['max-pairs']),
    sizeRuns: inputs.requests === null,
    threshold: inputs['alert-threshold'],
    cases
  }
  return { settings, interleave, budgetSec: inputs['paired-budget-minutes'] * 60 }
}

/** The runner's noise beside a case's verdict: its base against itself, same settings, one look. */
async function canary(
  engines: Record<Side, Engine>,
  run: RunCase,
  settings: PairedSettings,
  suite: SuiteContext
): Promise<Record<Side, CaseResult>> {
  const { id } = run.pair.head.topology
  // One look of the first look's pairs: it never adds more, so it needs no share of the budget.
  const looks = pairedCase(
    { base: engines.base, head: engines.base },
    { base: run.pair.base, head: run.pair.base },
    run.profile,
    { ...settings, looks: [settings.looks[0]] },
    suite.load,
    path.join(suite.logDir(id), 'canary'),
    suite.log
  )
  await suite.log.group(`Case ${id}: canary, the base beside itself`, async () => {
    try {
      await looks.first()
    } finally {
      await looks.pause()
    }
  })
  return looks.result().sides
}
