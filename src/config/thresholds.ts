import { z } from 'zod'

/*
 * Thresholds in k6's syntax: a mapping of a published metric to expressions
 * `<aggregation> <operator> <value>`, such as `latency: ['p(99)<200ms', 'med<50ms']`. The syntax
 * lives here, the earliest stage, because both the inputs and topology files (which may import
 * only config) parse it; judge/thresholds.ts evaluates what this parses. Pure.
 */

/**
 * How a metric is read, as k6 types its metrics: a trend of times, a rate, or one figure; and the
 * services' usage, one figure per measured run: CPU time per request (`cpu`) or peak memory
 * (`memory`), read as the case's one figure (`value`) or as a trend over its runs.
 */
export type MetricType = 'time' | 'rate' | 'value' | 'cpu' | 'memory'

export type Aggregation =
  | { kind: 'avg' | 'min' | 'max' | 'med' | 'count' | 'rate' | 'value' }
  | { kind: 'p'; percentile: number }

export const OPERATORS = ['<', '<=', '>', '>=', '==', '===', '!='] as const
export type Operator = (typeof OPERATORS)[number]

export interface Threshold {
  metric: string
  /** The expression as written, blanks as one space: only the syntax's characters, no `|` or backtick. */
  source: string
  aggregation: Aggregation
  operator: Operator
  /**
   * Seconds for a time metric and CPU seconds per request for `cpu`, MiB for `memory`; the plain
   * figure (a fraction, a count, requests/s) otherwise.
   */
  bound: number
}

/** Which aggregations each type takes, as in k6 (`count` of a rate counts its failures). */
const TAKES: Record<MetricType, readonly string[]> = {
  time: ['avg', 'min', 'max', 'med', 'p(N)'],
  rate: ['rate', 'count'],
  value: ['value'],
  cpu: ['value', 'avg', 'min', 'max', 'med', 'p(N)'],
  memory: ['value', 'avg', 'min', 'max', 'med', 'p(N)']
}

/** Time units and their seconds; a plain number on a time metric is milliseconds, as in k6. */
const TIME_UNITS: Record<string, number> = { s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, μs: 1e-6 }

/**
 * Size units and their MiB, binary (KiB) and decimal (kB, as Docker's stats print them); a plain
 * number on a memory metric is MiB, the unit its figures are kept in. k6 has no sizes.
 */
const SIZE_UNITS: Record<string, number> = {
  B: 1 / 2 ** 20,
  KiB: 1 / 2 ** 10,
  MiB: 1,
  GiB: 2 ** 10,
  kB: 1e3 / 2 ** 20,
  KB: 1e3 / 2 ** 20,
  MB: 1e6 / 2 ** 20,
  GB: 1e9 / 2 ** 20
}

/** The units of each type that takes one, the unit of a plain number, and both in words. */
interface UnitsOf {
  units: Record<string, number>
  plain: string
  words: string
}
const TIMES: UnitsOf = {
  units: TIME_UNITS,
  plain: 'ms',
  words: 'a time (ms, s, us, µs; a plain number is ms)'
}
const UNITS: Partial<Record<MetricType, UnitsOf>> = {
  time: TIMES,
  cpu: TIMES,
  memory: {
    units: SIZE_UNITS,
    plain: 'MiB',
    words: 'a size (B, KiB, MiB, GiB, kB, MB, GB; a plain number is MiB)'
  }
}

/** Larger bounds are typos, and would print as nonsense. */
const MAX_BOUND = 1e12

/** At most this many expressions per metric, and metrics per mapping. */
export const MAX_EXPRESSIONS = 16
export const MAX_METRICS = 32

/**
 * The type of a metric a case publishes, or null for a name no case publishes: the figures of
 * paced and burst runs (`latency`, `path`, hops, routers' own times, `hop:<name>`), a sweep's
 * `throughput` (its maximum sustainable rate) and `errors` (its steps' unanswered requests), and
 * the services' usage (`cpu:<service>`, `cpu:total`, `mem:<service>`; a service's name as a
 * topology spells it, metrics/usage.ts names them).
 */
export function metricType(metric: string): MetricType | null {
  if (metric === 'throughput') return 'value'
  if (metric === 'errors') return 'rate'
  if (/^cpu:[A-Za-z][\w-]{0,62}$/.test(metric)) return 'cpu'
  if (/^mem:[A-Za-z][\w-]{0,62}$/.test(metric)) return 'memory'
  const known = ['latency', 'latency:sent', 'c:lag', 'path', 'roundtrip', 'f:send', 'f:recv']
  if (known.includes(metric)) return 'time'
  if (/^r\d{1,3}:proc$/.test(metric) || /^(c|f|r\d{1,3})->(f|r\d{1,3}):send$/.test(metric))
    return 'time'
  // A hop's name as a report can show it in code (`hop:a->b` of traces too): letters, digits, `_.:/+->`.
  return /^hop:[\w.:/+>-]{1,80}$/.test(metric) ? 'time' : null
}

/** The expression's problem in words, or the threshold. */
type Parsed = Threshold | { problem: string }

function aggregation(text: string): { agg: Aggregation; rest: string } | { problem: string } {
  const p = /^p\(([^)]*)\)/.exec(text)
  if (p) {
    const n = p[1].trim()
    const value = /^\d+(\.\d+)?$/.test(n) ? Number(n) : NaN
    if (!(value > 0 && value <= 100))
      return { problem: `the percentile p(${p[1]}) must be a number above 0 and at most 100` }
    return { agg: { kind: 'p', percentile: value }, rest: text.slice(p[0].length) }
  }
  if (text.startsWith('p(')) return { problem: 'the percentile p( has no closing )' }
  const word = /^[A-Za-z_]\w*/.exec(text)?.[0]
  const kinds = ['avg', 'min', 'max', 'med', 'count', 'rate', 'value'] as const
  const kind = kinds.find(k => k === word)
  if (kind) return { agg: { kind }, rest: text.slice(kind.length) }
  const names = '(avg, min, max, med, p(N), count, rate, value)'
  return word === undefined
    ? { problem: `it names no aggregation ${names}` }
    : { problem: `unknown aggregation '${word}' ${names}` }
}

function operator(text: string): { op: Operator; rest: string } | { problem: string } {
  const run = /^[<>=!]+/.exec(text)?.[0]
  if (!run) return { problem: 'no operator after the aggregation (<, <=, >, >=, ==, ===, !=)' }
  const op = OPERATORS.find(o => o === run)
  return op
    ? { op, rest: text.slice(run.length) }
    : { problem: `unknown operator '${run}' (<, <=, >, >=, ==, ===, !=)` }
}

/** What a unit is of, for the message refusing it on another type. */
const unitKind = (unit: string): string | null =>
  unit in TIME_UNITS ? 'a time' : unit in SIZE_UNITS ? 'a size' : null

function unitProblem(unit: string, metric: string, type: MetricType): string {
  const takes = UNITS[type]
  const kind = unitKind(unit)
  if (!takes) return `${metric}, a ${type}, takes a plain number, no unit ('${unit}')`
  return kind
    ? `the unit '${unit}' is ${kind}; ${metric} takes ${takes.words}`
    : `unknown unit '${unit}': ${metric} takes ${takes.words}`
}

function value(
  text: string,
  metric: string,
  type: MetricType
): { bound: number } | { problem: string } {
  if (text === '') return { problem: 'no value after the operator' }
  const m = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text)
  if (!m) return { problem: `the value '${text}' is not a number` }
  const n = Number(m[0])
  if (!Number.isFinite(n) || Math.abs(n) > MAX_BOUND)
    return { problem: `the value ${m[0]} is not a finite number within ±${MAX_BOUND}` }
  if (n < 0) return { problem: `the value ${m[0]} is negative; no ${type} figure is` }
  const rest = text.slice(m[0].length).trim()
  const unit = /^[A-Za-zµμ%]+/.exec(rest)?.[0] ?? ''
  const junk = rest.slice(unit.length).trim()
  const takes = UNITS[type]
  if (unit !== '' && !(takes && unit in takes.units))
    return { problem: unitProblem(unit, metric, type) }
  if (junk !== '') return { problem: `'${junk}' follows the value` }
  return { bound: takes ? n * takes.units[unit || takes.plain] : n }
}

/** One expression on a metric of the given type. */
export function parseThreshold(metric: string, source: string, type: MetricType): Parsed {
  const text = source.trim()
  if (text === '') return { problem: 'the expression is empty' }
  const agg = aggregation(text)
  if ('problem' in agg) return agg
  const kind = agg.agg.kind === 'p' ? 'p(N)' : agg.agg.kind
  if (!TAKES[type].includes(kind))
    return {
      problem: `${kind} does not apply to ${metric}, a ${type} metric: it takes ${TAKES[type].join(', ')}`
    }
  const op = operator(agg.rest.trim())
  if ('problem' in op) return op
  const v = value(op.rest.trim(), metric, type)
  if ('problem' in v) return v
  if (agg.agg.kind === 'rate' && v.bound > 1)
    return { problem: `a rate is a fraction from 0 to 1, not ${v.bound}` }
  // What parsed holds only the syntax's characters; one space for each run of blanks keeps it one line.
  const shown = text.replace(/\s+/g, ' ')
  return { metric, source: shown, aggregation: agg.agg, operator: op.op, bound: v.bound }
}

/**
 * The mapping as a topology file or an input holds it: each metric a published one, each with a
 * list of expressions (one string is read as a list of one). Every problem is an issue at
 * `<metric>.<index>` naming the expression, so nothing starts with a bad one.
 */
export const ThresholdsSchema = z
  .record(z.union([z.string(), z.array(z.string()).min(1).max(MAX_EXPRESSIONS)]))
  .refine(m => Object.keys(m).length <= MAX_METRICS, `at most ${MAX_METRICS} metrics`)
  .transform((mapping, ctx): Threshold[] =>
    Object.entries(mapping).flatMap(([metric, given]) => {
      const type = metricType(metric)
      if (!type) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [metric],
          message: `unknown metric '${metric}': a case's published metric (latency, path, roundtrip, hop:<name>, …), a service's usage (cpu:<service>, cpu:total, mem:<service>), or a sweep's throughput or errors`
        })
        return []
      }
      return (typeof given === 'string' ? [given] : given).flatMap((source, i) => {
        const parsed = parseThreshold(metric, source, type)
        if (!('problem' in parsed)) return [parsed]
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [metric, i],
          message: `'${source}': ${parsed.problem}`
        })
        return []
      })
    })
  )
