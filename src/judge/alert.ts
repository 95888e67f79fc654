import { profileLabel } from '../profile/definition'
import { isRegression, ofVerdictMetric, type TrendStep } from '../trend/series'

/** A step a push made detectable, stamped with whether it alerts. */
export interface AlertedStep extends TrendStep {
  alert: boolean
}

/** The steps a push made detectable, each stamped once by the alert rule at `threshold`. */
export interface StepAlerts {
  /** The least slowdown of a case's verdict metric that alerts (`alert-threshold`). */
  threshold: number
  steps: AlertedStep[]
}

/**
 * A step alerts when it is a slowdown of at least the threshold of the metric the case is judged
 * by (`verdictMetric`: `path` for a GNES case at minimal or paced load, else the headline), as a
 * pull request's regression. Any other metric's step is shown, never alerted: it says where time
 * moved, and the case's verdict metric says whether that matters.
 */
const alerts = (s: TrendStep, threshold: number): boolean =>
  ofVerdictMetric(s) && isRegression(s) && s.change >= threshold

/** Each of `steps` stamped by the alert rule at `threshold`. */
export const alertSteps = (steps: readonly TrendStep[], threshold: number): StepAlerts => ({
  threshold,
  steps: steps.map(s => ({ ...s, alert: alerts(s, threshold) }))
})

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

export const stepOutputs = ({ steps }: StepAlerts): StepOutput[] =>
  steps.map(s => ({
    case: s.caseId,
    profile: profileLabel(s.firstAfter.profile, s.firstAfter.gnes === null),
    metric: s.metric,
    change: s.change,
    interval: s.interval,
    from: s.lastBefore.commit.sha,
    to: s.firstAfter.commit.sha,
    alert: s.alert
  }))
