import type { Inputs } from '../config/inputs'
import type { Threshold } from '../config/thresholds'
import { evaluateThresholds, type ThresholdReport } from '../judge/thresholds'
import { brokenText, thresholdsMarkdown } from '../report/threshold-text'
import type { Result } from '../result/schema'
import type { CasePair, CaseSpec } from '../topology/cases'

/** The thresholds judged on a run: the head's (and a paired run's base's) and their section. */
export interface JudgedThresholds {
  head: ThresholdReport
  base: ThresholdReport | null
  /** The report's section; empty when no case has a threshold. */
  markdown: string
}

type Side = 'head' | 'base'

/**
 * A case's thresholds on a side: its own topology file's (a paired run's base reads its own
 * checkout's), then the `thresholds` input's. The base's case may go by either side's id.
 */
function thresholdsOf(pairs: readonly CasePair[], side: Side, inputs: Inputs) {
  return (caseId: string): readonly Threshold[] => {
    const pair = pairs.find(p => p.head.topology.id === caseId || p[side].topology.id === caseId)
    const spec: CaseSpec | undefined = pair?.[side]
    return [...(spec?.topology.thresholds ?? []), ...inputs.thresholds]
  }
}

/** Each side's thresholds on its own result; the base's in paired mode only. */
export function judgeThresholds(
  inputs: Inputs,
  pairs: readonly CasePair[],
  head: Result,
  base: Result | null
): JudgedThresholds {
  const headReport = evaluateThresholds(head, thresholdsOf(pairs, 'head', inputs))
  const baseReport = base && evaluateThresholds(base, thresholdsOf(pairs, 'base', inputs))
  return {
    head: headReport,
    base: baseReport,
    markdown: thresholdsMarkdown(headReport, baseReport)
  }
}

/** Thrown once the run is recorded: a head threshold broke and `fail-on-threshold` is on. */
export class ThresholdsBroken extends Error {}

/** With `fail-on-threshold`, a broken head threshold fails the run (either front end) by name. */
export function checkThresholds(inputs: Inputs, judged: JudgedThresholds): void {
  if (inputs['fail-on-threshold'] && judged.head.broken)
    throw new ThresholdsBroken(brokenText(judged.head))
}
