import { brokenCount, type ThresholdReport } from './thresholds'
import type { CaseVerdict } from './verdict'

/** A check run's conclusions this action gives: GitHub's `success`, `failure` and `neutral`. */
export const CHECK_CONCLUSIONS = ['success', 'failure', 'neutral'] as const
export type CheckConclusion = (typeof CHECK_CONCLUSIONS)[number]

/** A run's judgement as its check run reads it, with the counts its title names. */
export interface CheckReading {
  conclusion: CheckConclusion
  /** Cases (and profiles) compared, and of those the regressions and the ones that cannot tell. */
  compared: number
  regressed: number
  inconclusive: number
  /** The head's broken thresholds, over every case. */
  broken: number
}

/**
 * The check run's conclusion: `failure` on a regression or a threshold broken on the head,
 * whatever `fail-on-regression` and `fail-on-threshold` do to the step (the check is how a branch
 * requires the verdict without failing the job); else `neutral` where a case cannot tell; else
 * `success`. The base's thresholds (a paired run's) judge the base, not the change: not read.
 */
export function checkReading(
  verdicts: readonly CaseVerdict[],
  thresholds: ThresholdReport | null
): CheckReading {
  const regressed = verdicts.filter(v => v.verdict === 'regression').length
  const inconclusive = verdicts.filter(v => v.verdict === 'inconclusive').length
  const broken = brokenCount(thresholds)
  const conclusion: CheckConclusion =
    regressed > 0 || broken > 0 ? 'failure' : inconclusive > 0 ? 'neutral' : 'success'
  return { conclusion, compared: verdicts.length, regressed, inconclusive, broken }
}
