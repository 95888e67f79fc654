/**
 * Months listed as ranges of consecutive months (`2010-01..2016-11`, or `2017-02` alone): a case
 * that is benchmarked every month lists one range however long its history, so the index head
 * and the dashboard's series list, which every append rewrites, stay the same size. Pure.
 */

/** A month (`YYYY-MM`) or a range of months (`YYYY-MM..YYYY-MM`, oldest first). */
export const MONTH_RANGE = /^\d{4}-(0[1-9]|1[0-2])(\.\.\d{4}-(0[1-9]|1[0-2]))?$/

const toIndex = (month: string): number =>
  Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1

const fromIndex = (i: number): string =>
  `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`

/** Months (any order, repeats allowed) as ranges, oldest first. */
export function toRanges(months: Iterable<string>): string[] {
  const sorted = [...new Set([...months].map(toIndex))].sort((a, b) => a - b)
  const out: string[] = []
  for (let i = 0; i < sorted.length;) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++
    out.push(i === j ? fromIndex(sorted[i]) : `${fromIndex(sorted[i])}..${fromIndex(sorted[j])}`)
    i = j + 1
  }
  return out
}

/**
 * Every month the ranges hold, oldest first. A range that ends before it starts is an error naming
 * it: the caller validated the text, not its order.
 */
export function expandRanges(ranges: string[]): string[] {
  const out = new Set<string>()
  for (const range of ranges) {
    const [from, to = from] = range.split('..')
    const first = toIndex(from)
    const last = toIndex(to)
    if (last < first) throw new Error(`month range '${range}' ends before it starts`)
    for (let i = first; i <= last; i++) out.add(fromIndex(i))
  }
  return [...out].sort()
}
