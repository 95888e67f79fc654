import { fmtDuration as duration } from '../text/duration'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { VERDICT_TEXT } from './answer-text'
import { plannedProbes, type BisectEnd, type ProbeResult } from '../judge/bisect'
import { fmtChange, fmtInterval } from '../text/percent'

interface Commit {
  sha: string
  subject: string
}

/**
 * A bisect's report: the culprit (or why there is none, or the range it could narrow to), the
 * step it brought, and every comparison made. Subjects come from the repository: escaped.
 */
export function renderBisectMarkdown(
  run: { commits: Commit[]; comparisons: ProbeResult[]; end: BisectEnd; seconds: number },
  links: { repositoryUrl?: string | null } = {}
): string {
  const { commits, comparisons, end } = run
  const base = safeUrl(links.repositoryUrl ?? null)
  const ref = (i: number): string => {
    const c = commits[i]
    const short = c.sha.slice(0, 7)
    return base ? markdownLink(`\`${short}\``, `${base}/commit/${c.sha}`) : inlineCode(short)
  }
  const line = (i: number): string => `${ref(i)} ${escapeMarkdown(commits[i].subject)}`
  const ends = comparisons[0]
  const step = ends
    ? `${inlineCode(ends.metric)} ${fmtChange(ends.change)} (interval ${fmtInterval(ends.ci)}) from the good end ${ref(0)} to the bad end ${ref(commits.length - 1)}`
    : ''
  const cost =
    `${comparisons.length} paired comparisons over ${commits.length} commits ` +
    `(a clean search takes ${plannedProbes(commits.length)}), ${duration(run.seconds)}`
  const head: string[] = []
  if (end.kind === 'culprit') {
    head.push(`## Bisect: 🔴 the first slow commit is ${ref(end.index)}`, '')
    head.push(`${line(end.index)}`, '')
    head.push(`The step: ${step}. Found in ${cost}.`)
  } else if (end.kind === 'no-step') {
    head.push(
      `## Bisect: nothing to search, the bad end is ${VERDICT_TEXT[end.answer]} against the good end`,
      ''
    )
    head.push(
      `${step}: ${
        end.answer === 'inconclusive'
          ? 'this run cannot tell whether the bad end is slower; measure longer (max-pairs, paired-budget-minutes) or on a quieter runner.'
          : 'no slowdown of at least the threshold to look for.'
      }`
    )
  } else {
    const inRange = Array.from({ length: end.hi - end.lo }, (_, k) => end.lo + 1 + k)
    head.push(`## Bisect: 🟡 the first slow commit is one of ${inRange.length}`, '')
    head.push(
      `A commit between them could be told from neither end, so the search stopped with the range ` +
        `after ${ref(end.lo)}: ${step}. ${cost}.`,
      '',
      ...inRange.map(i => `- ${line(i)}`)
    )
  }
  const rows = comparisons.map(
    (r, k) =>
      `| ${k + 1} | ${ref(r.head)} | ${ref(r.base)} | ${VERDICT_TEXT[r.answer]} | ` +
      `${inlineCode(r.metric)} ${fmtChange(r.change)} | ${fmtInterval(r.ci)} | ${r.pairs} | ${duration(r.seconds)} |`
  )
  return [
    ...head,
    '',
    '| # | head | against | answer | change | interval | pairs | wall time |',
    '| --: | :-- | :-- | :-- | :-- | :-- | --: | --: |',
    ...rows,
    ''
  ].join('\n')
}
