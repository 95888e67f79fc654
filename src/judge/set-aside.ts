import type { OutlierRule } from '../inference/outliers'
import { fmtPercent } from '../text/percent'

/**
 * The paired verdict's rule (docs/regression.md, *A pair unlike the others*): a clean run of
 * normal pairs sets one aside 1 % of the time, and at most a fifth of the pairs can go. At 5 % the
 * test finds a moderate outlier more often, but the levels that make up for the clean pairs it
 * also sets aside cost every clean run more pairs than that saves (bench/paired-rule.ts).
 */
export const OUTLIER_RULE: OutlierRule = { alpha: 0.01, share: 0.2 }

/** The rule in the words the report and the history use. */
export const outlierRuleText = (rule: OutlierRule): string =>
  `Rosner’s generalized ESD outlier test on the log ratios at ${fmtPercent(rule.alpha, { decimals: 2, trim: true, spaced: true })} (at most ${fmtPercent(rule.share, { decimals: 'round', trim: true, spaced: true })} of the pairs)`

/** The paired verdict's rule (`OUTLIER_RULE`), in those words. */
export const SET_ASIDE_RULE = outlierRuleText(OUTLIER_RULE)
