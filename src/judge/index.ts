/**
 * Judgements over samples: a pull request's verdicts against the baseline in the history, a paired
 * run's verdicts and its planned looks, the hops that moved, a push's alert rule, a bisect's
 * search and the slowdown it searches. Pure functions; report/ words what they decide.
 */
export { compareResult, type CompareOptions, type Comparison } from './compare'
export { comparePaired, pairedMetric, type PairedCase, type PairedComparison } from './paired'
export { slowdownToBisect } from './bisect-target'
export { nextStep, plannedProbes, type BisectEnd, type Probe, type ProbeResult } from './bisect'
export { overallVerdict } from './verdict'
