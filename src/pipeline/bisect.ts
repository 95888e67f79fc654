import * as path from 'node:path'
import { revisionName, type Inputs } from '../config/inputs'
import { invalidInput } from '../config/preflight'
import { gitIn } from '../store'
import { consoleLog, type Log } from '../log'
import { fmtPercent } from '../text/percent'
import {
  comparePaired,
  nextStep,
  overallVerdict,
  type BisectEnd,
  type Probe,
  type ProbeResult
} from '../judge'
import type { CasePair } from '../topology/cases'
import { checkoutBase, checkoutPairs, checkoutPath } from './base-checkout'
import { checkPairedRun } from './preflight'
import { runPairedSuite } from './suite/paired'

/** A commit of the range: its sha and subject line (untrusted text: escaped where it lands). */
export interface RangeCommit {
  sha: string
  subject: string
}

export interface BisectRun {
  /** The good end first, then every first-parent commit up to the bad end. */
  commits: RangeCommit[]
  comparisons: ProbeResult[]
  end: BisectEnd
  seconds: number
}

/** Compares two commits of the range with a paired run; the bisect's one expensive step. */
export type CompareCommits = (
  base: RangeCommit,
  head: RangeCommit,
  k: number
) => Promise<Omit<ProbeResult, keyof Probe>>

/**
 * The commits from `good` (exclusive of nothing: it comes first) to `bad` along the first-parent
 * line, refused before anything runs when `good` is no ancestor of `bad` or they are one commit.
 */
export async function commitRange(repo: string, good: string, bad: string): Promise<RangeCommit[]> {
  const git = gitIn(repo)
  const sha = async (name: 'good' | 'bad', ref: string): Promise<string> => {
    const checked = revisionName(name).safeParse(ref)
    if (!checked.success) throw invalidInput(name, ref, checked.error.issues[0].message)
    try {
      return (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim()
    } catch {
      throw invalidInput(name, ref, `no such commit in the repository at ${repo}`)
    }
  }
  const [g, b] = [await sha('good', good), await sha('bad', bad)]
  if (g === b) throw invalidInput('bad', bad, 'it is the good commit: there is no range to search')
  const ancestor = await git(['merge-base', '--is-ancestor', g, b]).then(
    () => true,
    () => false
  )
  if (!ancestor) {
    throw invalidInput(
      'good',
      good,
      `it is not an ancestor of ${bad}: a bisect searches from good forward to bad`
    )
  }
  const log = await git([
    'log',
    '--first-parent',
    '--ancestry-path',
    '--reverse',
    '--format=%H %s',
    `${g}..${b}`
  ])
  const subject = async (s: string) => (await git(['log', '-1', '--format=%s', s])).trim()
  const later = log
    .split('\n')
    .filter(Boolean)
    .map(line => ({ sha: line.slice(0, 40), subject: line.slice(41) }))
  return [{ sha: g, subject: await subject(g) }, ...later]
}

/**
 * A paired run of `head` against `base`, both commits of `repo` checked out beside it: the head's
 * topology files, GNES source tree, Dockerfile and build context are the head commit's copies,
 * the base's its own (the paired suite's `baseline-ref`). Answers with the worst case's verdict.
 */
export function pairedCommits(
  inputs: Inputs,
  repo: string,
  pairs: CasePair[],
  log: Log
): CompareCommits {
  return async (base, head, k) => {
    const t0 = Date.now()
    const checkout = await checkoutBase(repo, head.sha, undefined, 'head')
    try {
      const moved = checkoutPath(repo, checkout)
      const move = (v: string | null): string | null => (v === null ? null : moved(path.resolve(v)))
      const headInputs: Inputs = {
        ...inputs,
        'gnes-source': move(inputs['gnes-source']),
        dockerfile: move(inputs.dockerfile),
        'docker-context': move(inputs['docker-context']),
        'baseline-ref': base.sha,
        'out-dir': path.join(
          inputs['out-dir'],
          'bisect',
          `${k}-${head.sha.slice(0, 7)}-vs-${base.sha.slice(0, 7)}`
        )
      }
      const headPairs = checkoutPairs(pairs, repo, checkout).map(p => ({
        head: p.base,
        base: p.base
      }))
      const run = await runPairedSuite(headInputs, {
        log,
        pairs: headPairs,
        workspace: checkout.dir
      })
      const c = comparePaired(run, { threshold: inputs['alert-threshold'] })
      const answer = overallVerdict(c.verdicts)
      const decided =
        c.cases.find(x => x.metrics.some(m => m.gating && m.verdict === answer)) ?? c.cases[0]
      const m = decided.metrics.find(x => x.gating)!
      return {
        answer: answer === 'none' ? 'inconclusive' : answer,
        change: m.change,
        ci: m.ci,
        metric: m.metric,
        pairs: decided.sequence.pairs,
        seconds: (Date.now() - t0) / 1000
      }
    } finally {
      await checkout.remove()
    }
  }
}

/**
 * Finds the first slow commit between `good` and `bad` by paired runs between commits, halving
 * the range each step (`nextStep`). Every comparison stops by the paired suite's adaptive rule.
 */
export async function bisect(
  inputs: Inputs,
  range: { repo: string; good: string; bad: string },
  options: { log?: Log; compare?: CompareCommits } = {}
): Promise<BisectRun> {
  const log = options.log ?? consoleLog
  if (inputs.baseline !== 'paired')
    throw invalidInput(
      'baseline',
      inputs.baseline,
      'a bisect compares commits side by side: baseline must be paired'
    )
  const repo = path.resolve(range.repo)
  const pairs = checkPairedRun({ ...inputs, 'baseline-ref': range.good })
  const commits = await commitRange(repo, range.good, range.bad)
  const compare = options.compare ?? pairedCommits(inputs, repo, pairs, log)
  const t0 = Date.now()
  const comparisons: ProbeResult[] = []
  for (;;) {
    const step = nextStep(commits.length, comparisons)
    if ('end' in step)
      return { commits, comparisons, end: step.end, seconds: (Date.now() - t0) / 1000 }
    const { base, head }: Probe = step.probe
    const k = comparisons.length + 1
    const r = await log.group(
      `Comparison ${k}: ${commits[head].sha.slice(0, 7)} against ${commits[base].sha.slice(0, 7)}`,
      () => compare(commits[base], commits[head], k)
    )
    comparisons.push({ ...r, base, head })
    log.info(
      `comparison ${k}: ${r.answer}, ${r.metric} ${fmtPercent(r.change, { spaced: true })} in ${r.pairs} pairs`
    )
  }
}
