import { profileLabel } from '../profile/definition'
import { isRegression, ofVerdictMetric, type TrendStep } from '../trend/series'

/** A step this push made detectable, as the `change-points` output lists it. */
export interface StepOutput {
  case: string
  profile: string
  metric: string
  change: number
  interval: [number, number]
  from: string | null
  to: string | null
  alert: boolean
}

/**
 * A step alerts when it is a slowdown of at least the threshold of the metric the case is judged
 * by (`verdictMetric`: `path` for a GNES case at minimal or paced load, else the headline), as a
 * pull request's regression. Any other metric's step is shown, never alerted: it says where time
 * moved, and the case's verdict metric says whether that matters.
 */
export const alerts = (s: TrendStep, threshold: number): boolean =>
  ofVerdictMetric(s) && isRegression(s) && s.change >= threshold

export const stepOutputs = (steps: readonly TrendStep[], threshold: number): StepOutput[] =>
  steps.map(s => ({
    case: s.caseId,
    profile: profileLabel(s.firstAfter.profile, s.firstAfter.gnes === null),
    metric: s.metric,
    change: s.change,
    interval: s.interval,
    from: s.lastBefore.commit.sha,
    to: s.firstAfter.commit.sha,
    alert: alerts(s, threshold)
  }))
