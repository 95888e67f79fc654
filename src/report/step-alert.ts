import { profileLabel } from '../profile/definition'
import type { AlertedStep, StepAlerts } from '../judge/alert'
import { commitRef } from '../render/format'
import { stepRange, stepSize } from '../render/steps'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { fmtPercent } from '../text/percent'
import { terminalSafe } from '../text/terminal'
import { isAgainstBase, isRegression, type TrendStep } from '../trend/series'

/** Hidden in an alert issue's body: the one open issue of a branch's alerts is found by it. */
export const alertMarker = (branch: string): string =>
  `<!-- gnes-latency-bench: latency alert, ${encodeURIComponent(branch)} -->`

interface AlertLinks {
  dashboardUrl: string | null
  repositoryUrl: string | null
  /** GitHub users to mention (already checked to be logins). */
  cc: readonly string[]
}

/**
 * What the steps can and cannot tell: a step of a metric compares separate jobs; a step of a
 * series of paired changes compares pairs measured in one job each, against one base.
 */
function caveats(steps: readonly TrendStep[]): string[] {
  const paired = steps.some(isAgainstBase)
  const separate = steps.some(s => !isAgainstBase(s))
  return [
    paired &&
      'A step of a `… vs base` series compares each push’s change against the same base, measured beside it in its own job: a runner’s slow spell moves both sides alike.',
    separate &&
      'A step of the history compares separate jobs, and a runner can run a few percent slower for a while with nothing changed.',
    'A paired run of the commits a step lies between tells a change of the code from the runner’s: `bisect` (the example workflow `bisect.yml`) does that and names the first slow commit.'
  ].filter((x): x is string => typeof x === 'string')
}

/**
 * What a recording push says about the steps its entries made detectable: for the job summary,
 * and (those that alert) a commit comment or the branch's alert issue. History text in it is
 * escaped: a commit of the history is untrusted.
 */
export function stepsMarkdown({ steps, threshold }: StepAlerts, links: AlertLinks): string {
  if (!steps.length) return ''
  const repo = links.repositoryUrl ?? undefined
  const commit = (e: AlertedStep['firstAfter'], text: string) =>
    markdownLink(escapeMarkdown(text), safeUrl(commitRef(e, repo)?.url ?? null))
  const rows = steps.map(s => {
    const r = stepRange(s, repo)
    const mark = s.alert ? '🔴 regression' : isRegression(s) ? '🟠 slower' : '🟢 faster'
    return (
      `| ${escapeMarkdown(s.caseId)} | ${profileLabel(s.firstAfter.profile, s.firstAfter.gnes === null)} ` +
      `| ${inlineCode(s.metric)} | ${mark} ${stepSize(s)} | ${commit(s.lastBefore, r.from)} → ${commit(s.firstAfter, r.to)} |`
    )
  })
  const dashboard = safeUrl(links.dashboardUrl)
  const cc = links.cc.length ? `\n\ncc ${links.cc.map(u => `@${u}`).join(' ')}` : ''
  return [
    '### Latency change points',
    '',
    `The entries this push recorded made these steps detectable (change-point detection over each series' newest entries; a regression is a slowdown of at least ${fmtPercent(threshold, { spaced: true })} of the metric the case is judged by: \`path\` for a GNES case at minimal or paced load, else the headline; where the entries were paired against a base, its change against that base, e.g. \`path vs base\`):`,
    '',
    '| Case | Profile | Metric | Step (95 % interval) | Between |',
    '| :-- | :-- | :-- | :-- | :-- |',
    ...rows,
    '',
    ...caveats(steps),
    '',
    dashboard ? `The steps are marked on the [charts](${dashboard}).${cc}` : `${cc.trim()}`
  ]
    .join('\n')
    .trimEnd()
}

/** The same for a terminal: one line per step, history text made terminal-safe. */
export function stepsText({ steps }: StepAlerts): string {
  if (!steps.length) return ''
  const lines = steps.map(s => {
    const r = stepRange(s)
    const what = s.alert ? 'REGRESSION' : isRegression(s) ? 'slower' : 'faster'
    return terminalSafe(
      `  case ${s.caseId}, ${profileLabel(s.firstAfter.profile, s.firstAfter.gnes === null)}, ${s.metric}: ${what} ${stepSize(s)} between ${r.from} and ${r.to}`
    )
  })
  return ['change points this recording made detectable:', ...lines].join('\n')
}
