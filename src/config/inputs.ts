import { z } from 'zod'
import { gnesVersionRule, SUPPORTED_GNES_VERSIONS } from './gnes-version'
import { DEFAULT_BASE_IMAGE, ENGINE_CHOICES } from './engines'
import { InputError } from './input-error'
import { parseLatencyBound } from './latency-bound'
import { MAX_RATE, MIN_RATE } from './rate'
import { parse as parseYaml } from 'yaml'
import { ThresholdsSchema } from './thresholds'
import { PROFILE_KINDS, type ProfileKind } from '../profile/definition'
import { traitsOf } from '../profile/traits'

// Every stage's checks throw it; callers take it from here with the inputs it is about.
export { InputError }

/**
 * Every option of the suite, as the action's inputs and the CLI's flags spell it (kebab-case).
 * Both front ends hand raw strings to `parseInputs`, so one schema decides what is valid.
 */
const int = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine(n => n >= min, `${name} must be at least ${min}`)
    .refine(n => n <= max, `${name} must be at most ${max}`)

/**
 * `auto`, or a whole number in range: one message that says both, where a union of the two would
 * answer "Invalid input".
 */
const autoOrInt = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .refine(
      v => v === 'auto' || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max),
      `${name} must be auto or a whole number from ${min} to ${max}`
    )
    .transform(v => (v === 'auto' ? ('auto' as const) : Number(v)))

/**
 * A comma-separated list: no empty item (`a.yml,` is a typo, not one file) and no item twice
 * (a case run twice cannot be recorded).
 */
const list = (name: string, example: string) =>
  z
    .string()
    .trim()
    .transform(v => v.split(',').map(s => s.trim()))
    .refine(
      items => items.every(s => s !== ''),
      `${name} must be a comma-separated list without empty items, such as ${example}`
    )
    .superRefine((items, ctx) => {
      const twice = items.filter((s, i) => s !== '' && items.indexOf(s) !== i)
      if (twice.length) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${name} lists ${[...new Set(twice)].join(', ')} more than once`
        })
      }
    })

const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine(v => ['true', 'false'].includes(v), `${name} must be true or false`)
    .transform(v => v === 'true')

const RATE = /^\d+(\.\d+)?$/
const inRange = (n: number): boolean => n >= MIN_RATE && n <= MAX_RATE

/**
 * Empty (null: the profile's own rate), or a rate in range. One message names what is expected
 * for any other text: no union, whose failure zod reports as "Invalid input".
 */
const optionalRate = (name: string) =>
  z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null
      if (RATE.test(v) && inRange(Number(v))) return Number(v)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `${name} must be a number of requests per second from ${MIN_RATE} to ${MAX_RATE}, such as 5 or 0.5`
      })
      return z.NEVER
    })

/**
 * `auto` (null), or a comma-separated list of rates; one message names every entry that is not a
 * rate in range. No union: zod would report a failed refinement inside one as "Invalid input".
 */
const sweepRates = (name: string) =>
  z
    .string()
    .trim()
    .transform(v => (v === 'auto' ? null : v.split(',').map(r => r.trim())))
    .superRefine((list, ctx) => {
      const bad = (list ?? []).filter(r => !RATE.test(r) || !inRange(Number(r)))
      if (bad.length > 0) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${name} must be auto or list rates in requests/s from ${MIN_RATE} to ${MAX_RATE}, such as 5,10,20 (not ${bad.map(b => `'${b}'`).join(', ')})`
        })
      }
    })
    .transform(list => list?.map(Number) ?? null)

const optionalText = z
  .string()
  .trim()
  .transform(v => (v === '' ? null : v))

const gnesVersion = (name: string) =>
  z
    .string()
    .trim()
    .refine(v => (SUPPORTED_GNES_VERSIONS as readonly string[]).includes(v), gnesVersionRule(name))

/**
 * One commit, branch or tag name: a revision reaches git's command line, so no option, no range,
 * no path (`baseline-ref`, and a bisect's ends).
 */
export const revisionName = (name: string) =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9_][A-Za-z0-9_./-]{0,199}$/,
      `${name} must be a commit, branch or tag name (letters, digits, _ . / -, not starting with - or .)`
    )
    .refine(v => !v.includes('..'), `${name} names one commit, not a range`)

/** Upper bound of `docs`: requests per run stay countable and the route dump small. */
const MAX_DOCS = 100_000

/** Most measured runs of a profile, requests of a paced run, and warm-up requests of a stream. */
const MAX_RUNS = 1000
const MAX_REQUESTS = 100_000
const MAX_WARMUP_REQUESTS = 100_000

/** One document's bytes: 100 MB, ten times the standard request's whole payload. */
const MAX_DOC_BYTES = 100_000_000

/**
 * Time bounds, in seconds: a case may run for a day, a sweep step for an hour; Node's timers hold
 * at most 2^31 − 1 ms (24.8 days), so every timeout the suite sets stays below that.
 */
const MAX_CASE_TIMEOUT = 86_400
const MAX_STEP_SECONDS = 3_600
const MAX_SWEEP_STEPS = 100

/** Entries a chart or table shows at most. */
const MAX_ENTRIES_SHOWN = 10_000

/** Most pairs of one paired case, and the longest time a paired run may add pairs for (a day). */
const MAX_PAIRS = 1000
const MAX_BUDGET_MINUTES = 1440

/** `max-pairs: auto`: up to five times the first look's pairs (30 for the default 6). */
const AUTO_MAX_PAIRS_FACTOR = 5

/** A number of minutes above 0, at most MAX_BUDGET_MINUTES. */
const minutes = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, `${name} must be a number of minutes, such as 15 or 2.5`)
    .transform(Number)
    .refine(
      n => n > 0 && n <= MAX_BUDGET_MINUTES,
      `${name} must be above 0 and at most ${MAX_BUDGET_MINUTES}`
    )

export const InputsSchema = z.object({
  cases: list('cases', '1,2,3,4 (case ids and/or topology files)'),
  docs: int('docs', 1, MAX_DOCS),
  'batch-size': int('batch-size', 1, MAX_DOCS),
  'doc-bytes': int('doc-bytes', 1, MAX_DOC_BYTES),
  runs: autoOrInt('runs', 1, MAX_RUNS),
  profiles: z
    .string()
    .trim()
    .transform(v => v.split(',').map(s => s.trim()))
    .refine(
      list => list.every(p => (PROFILE_KINDS as readonly string[]).includes(p)),
      `profiles must be a comma-separated list of ${PROFILE_KINDS.join(', ')}`
    )
    .refine(list => new Set(list).size === list.length, 'profiles must not repeat a profile')
    .transform(list => list as ProfileKind[]),
  rate: optionalRate('rate'),
  'minimal-rate': optionalRate('minimal-rate'),
  requests: autoOrInt('requests', 2, MAX_REQUESTS),
  'warmup-requests': autoOrInt('warmup-requests', 0, MAX_WARMUP_REQUESTS),
  'sweep-rates': sweepRates('sweep-rates'),
  'sweep-step-seconds': int('sweep-step-seconds', 1, MAX_STEP_SECONDS),
  'sweep-max-steps': int('sweep-max-steps', 1, MAX_SWEEP_STEPS),
  // Parsed once, here; the text is kept for the report.
  'sweep-max-latency': z
    .string()
    .trim()
    .transform((text, ctx) => {
      const bound = parseLatencyBound(text)
      if (bound) return { text, bound }
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message:
          'sweep-max-latency must be a multiple of the lowest step p50 latency such as 5x, or a duration such as 250ms or 2s'
      })
      return z.NEVER
    }),
  'case-timeout': int('case-timeout', 10, MAX_CASE_TIMEOUT),
  engine: z.enum(ENGINE_CHOICES, {
    errorMap: () => ({ message: `engine must be one of ${[...ENGINE_CHOICES].sort().join(', ')}` })
  }),
  'keep-cpus-awake': z.enum(['auto', 'true', 'false'], {
    errorMap: () => ({ message: 'keep-cpus-awake must be one of auto, true, false' })
  }),
  'gnes-version': gnesVersion('gnes-version'),
  'gnes-source': optionalText,
  topology: optionalText.pipe(list('topology', 'a.yml,b.yml').nullable()),
  baseline: z.enum(['history', 'paired'], {
    errorMap: () => ({ message: 'baseline must be one of history, paired' })
  }),
  'baseline-gnes-version': z.union([
    z.literal('').transform(() => null),
    gnesVersion('baseline-gnes-version')
  ]),
  'baseline-image': optionalText,
  'baseline-topology': optionalText.pipe(list('baseline-topology', 'a.yml,b.yml').nullable()),
  'baseline-ref': optionalText.pipe(revisionName('baseline-ref').nullable()),
  'paired-deploy': z.enum(['once', 'per-pair'], {
    errorMap: () => ({ message: 'paired-deploy must be one of once, per-pair' })
  }),
  'paired-interleave': z.enum(['requests', 'blocks'], {
    errorMap: () => ({ message: 'paired-interleave must be one of requests, blocks' })
  }),
  'max-pairs': autoOrInt('max-pairs', 2, MAX_PAIRS),
  'verdict-metric': z.enum(['auto', 'cpu:total'], {
    errorMap: () => ({ message: 'verdict-metric must be one of auto, cpu:total' })
  }),
  canary: bool('canary'),
  'paired-budget-minutes': minutes('paired-budget-minutes'),
  // Deprecated: a case's own budget before the budget was the whole run's (parseInputs maps it).
  'pairs-budget-minutes': optionalText.pipe(minutes('pairs-budget-minutes').nullable()),
  'out-dir': z.string().trim().min(1, 'out-dir must not be empty'),
  'result-file': optionalText,
  image: optionalText,
  dockerfile: optionalText,
  'docker-context': optionalText,
  'base-image': z.string().trim().min(1, 'base-image must not be empty'),
  cache: z.enum(['auto', 'true', 'false'], {
    errorMap: () => ({ message: 'cache must be one of auto, true, false' })
  }),
  cpus: optionalText,
  memory: optionalText,
  record: z.enum(['auto', 'true', 'false'], {
    errorMap: () => ({ message: 'record must be one of auto, true, false' })
  }),
  'gh-pages-branch': z.string().trim().min(1, 'gh-pages-branch must not be empty'),
  'history-dir': z.string().trim().min(1, 'history-dir must not be empty'),
  'history-repository': optionalText,
  'auto-push': bool('auto-push'),
  'adopt-branch': bool('adopt-branch'),
  'github-token': optionalText,
  'readme-template': optionalText,
  'max-entries': int('max-entries', 1, MAX_ENTRIES_SHOWN),
  // Reports link to it: only a plain http(s) address, never a script or data URL.
  'dashboard-url': optionalText.refine(
    v => v === null || /^https?:\/\/[^\s"'<>`]+$/.test(v),
    'dashboard-url must be an http(s) address, such as https://bench.example.org/benchmarks/'
  ),
  'alert-threshold': z
    .string()
    .trim()
    .regex(/^(auto|\d+(\.\d+)?%?)$/, 'alert-threshold must be auto or a percentage such as 10%')
    .transform(v => (v === 'auto' ? ('auto' as const) : Number(v.replace('%', '')) / 100))
    // A change is at least −100 %: a larger threshold could never call an improvement.
    .refine(t => t === 'auto' || t <= 1, 'alert-threshold must be at most 100%'),
  'fail-on-regression': bool('fail-on-regression'),
  thresholds: z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return []
      let mapping: unknown
      try {
        mapping = parseYaml(text)
      } catch {
        mapping = undefined
      }
      const parsed = ThresholdsSchema.safeParse(mapping)
      if (parsed.success) return parsed.data
      if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
        const message = `thresholds must be a YAML or JSON mapping of metrics to k6 expressions, such as {latency: ['p(99)<200ms']}`
        ctx.addIssue({ code: z.ZodIssueCode.custom, message })
      } else parsed.error.issues.forEach(issue => ctx.addIssue(issue))
      return z.NEVER
    }),
  'fail-on-threshold': bool('fail-on-threshold'),
  'on-inconclusive': z.enum(['warn', 'fail'], {
    errorMap: () => ({ message: 'on-inconclusive must be one of warn, fail' })
  }),
  'comment-on-pr': bool('comment-on-pr'),
  'comment-key': optionalText,
  'check-run': z.enum(['auto', 'true', 'false'], {
    errorMap: () => ({ message: 'check-run must be one of auto, true, false' })
  }),
  'alert-comment': z.enum(['none', 'commit', 'issue'], {
    errorMap: () => ({ message: 'alert-comment must be one of none, commit, issue' })
  }),
  // GitHub logins: letters, digits and single hyphens, at most 39 characters, so an alert can
  // mention only people, never inject text.
  'alert-cc': z
    .string()
    .trim()
    .transform(v => (v === '' ? [] : v.split(',').map(u => u.trim().replace(/^@/, ''))))
    .refine(
      users => users.every(u => /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}$/.test(u)),
      'alert-cc must list GitHub user names, comma-separated, such as octocat,hubot'
    )
})

/**
 * `runs`, `requests`, `max-pairs` and `alert-threshold` resolved by `parseInputs` (every stage
 * sees a number of requests or null, and a threshold), the deprecated `pairs-budget-minutes`
 * folded into `paired-budget-minutes`.
 */
export type Inputs = Omit<
  z.infer<typeof InputsSchema>,
  'runs' | 'requests' | 'max-pairs' | 'alert-threshold' | 'pairs-budget-minutes'
> & {
  runs: number
  /** Null in paired mode under `auto`: each case sizes its runs from its rate (`pairedRunRequests`). */
  requests: number | null
  'max-pairs': number
  'alert-threshold': number
}
export type RawInputs = Record<keyof z.input<typeof InputsSchema>, string>

/** Defaults shared by action.yml (kept in sync by a test) and the CLI. */
export const DEFAULTS: RawInputs = {
  cases: '1,2,3,4',
  docs: '500',
  'batch-size': '10',
  'doc-bytes': '1000000',
  runs: 'auto',
  profiles: 'minimal,burst',
  rate: '',
  'minimal-rate': '',
  requests: 'auto',
  'warmup-requests': 'auto',
  'sweep-rates': 'auto',
  'sweep-step-seconds': '5',
  'sweep-max-steps': '10',
  'sweep-max-latency': '5x',
  'case-timeout': '900',
  engine: 'auto',
  'keep-cpus-awake': 'auto',
  'gnes-version': '0.0.47',
  'gnes-source': '',
  topology: '',
  baseline: 'history',
  'baseline-gnes-version': '',
  'baseline-image': '',
  'baseline-topology': '',
  'baseline-ref': '',
  'paired-deploy': 'per-pair',
  'paired-interleave': 'requests',
  'max-pairs': 'auto',
  'verdict-metric': 'auto',
  'paired-budget-minutes': '15',
  'pairs-budget-minutes': '',
  canary: 'false',
  'out-dir': 'out',
  'result-file': '',
  image: '',
  dockerfile: '',
  'docker-context': '',
  'base-image': DEFAULT_BASE_IMAGE,
  cache: 'auto',
  cpus: '',
  memory: '',
  record: 'auto',
  'gh-pages-branch': 'gh-pages',
  'history-dir': 'benchmarks',
  'dashboard-url': '',
  'history-repository': '',
  'auto-push': 'true',
  'adopt-branch': 'false',
  'github-token': '',
  'readme-template': '',
  'max-entries': '50',
  'alert-threshold': 'auto',
  'fail-on-regression': 'false',
  thresholds: '',
  'fail-on-threshold': 'false',
  'on-inconclusive': 'warn',
  'comment-on-pr': 'true',
  'comment-key': '',
  'check-run': 'auto',
  'alert-comment': 'none',
  'alert-cc': ''
}

/**
 * `runs: auto`: 3 runs a case in history mode; 6 pairs in paired mode, where the paired t-test
 * needs the degrees of freedom (docs/regression.md has the trials that chose it).
 */
const AUTO_RUNS = { history: 3, paired: 6 } as const

/**
 * `alert-threshold: auto`: 10 % in history mode, where the baseline was measured in another job
 * and the threshold must absorb the drift between jobs (3–20 % on shared runners); 2.5 % in paired
 * mode, where both sides share the runner and the job (docs/regression.md, *The threshold*).
 */
export const AUTO_THRESHOLD = { history: 0.1, paired: 0.025 } as const

/** A parsed `alert-threshold` for a run in `baseline` mode. */
export const thresholdFor = (value: number | 'auto', baseline: 'history' | 'paired'): number =>
  value === 'auto' ? AUTO_THRESHOLD[baseline] : value

/**
 * `requests: auto`: 20 per run in history mode; in paired mode null, each case's runs sized from
 * its rate once its topology is known (`pairedRunRequests` in client/plan.ts).
 */
const autoRequests = (baseline: Inputs['baseline']): number | null =>
  baseline === 'paired' ? null : 20

/**
 * The deprecated `pairs-budget-minutes` was a budget per case; read as the whole run's, it is that
 * many minutes for each case the run has, the most the run could spend on pairs before.
 */
const pairedBudgetMinutes = (
  perCase: number | null,
  data: Pick<Inputs, 'paired-budget-minutes' | 'topology' | 'cases'>
): number =>
  perCase === null ? data['paired-budget-minutes'] : perCase * (data.topology ?? data.cases).length

/** Both budgets given: the deprecated one and a `paired-budget-minutes` of the run's own. */
function budgetProblems(data: z.infer<typeof InputsSchema>, merged: RawInputs): string[] {
  const both =
    data['pairs-budget-minutes'] !== null &&
    merged['paired-budget-minutes'].trim() !== DEFAULTS['paired-budget-minutes']
  return both
    ? [
        `  input 'pairs-budget-minutes' = '${merged['pairs-budget-minutes']}': pairs-budget-minutes is deprecated and paired-budget-minutes is set too: set paired-budget-minutes only (the whole run's minutes, shared by its cases)`
      ]
    : []
}

/** What a run's raw inputs still say in deprecated words, for the front end to warn about. */
export function deprecationNotes(raw: Partial<RawInputs>): string[] {
  const perCase = raw['pairs-budget-minutes']?.trim()
  return perCase
    ? [
        `pairs-budget-minutes is deprecated: set paired-budget-minutes, the minutes of the whole paired run shared by its cases; ${perCase} minutes per case is read as ${perCase} × the number of cases`
      ]
    : []
}

/**
 * `result-file` records a result measured elsewhere and runs nothing: a paired run (which measures
 * its base beside the head here) and `record: false` contradict it. Checked with the inputs, before
 * a pull request's merge-base is looked for.
 */
function resultFileProblems(inputs: z.infer<typeof InputsSchema>): string[] {
  const file = inputs['result-file']
  if (file === null) return []
  const problems: string[] = []
  if (inputs.baseline === 'paired') {
    problems.push(
      `  input 'baseline' = 'paired': a paired run measures its base and head here, but result-file '${file}' records a result measured elsewhere and runs nothing: set one`
    )
  }
  if (inputs.record === 'false') {
    problems.push(
      `  input 'record' = 'false': result-file '${file}' is there to be recorded, and record: false records nothing: set one`
    )
  }
  return problems
}

/** Validates raw strings; the error names every bad input and what it expected. */
export function parseInputs(raw: Partial<RawInputs>): Inputs {
  const given = Object.entries(raw).filter(([, v]) => v !== undefined)
  const merged: RawInputs = { ...DEFAULTS, ...Object.fromEntries(given) }
  const parsed = InputsSchema.safeParse(merged)
  const rated = parsed.success
    ? parsed.data.profiles.find(k => traitsOf({ kind: k }).rate === 'rate')
    : undefined
  if (parsed.success && rated && parsed.data.rate === null) {
    throw new InputError(
      `Invalid input:\n  input 'rate' = '': the ${rated} profile needs a rate in requests/s, such as 5`
    )
  }
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      i => `  input '${i.path.join('.')}' = '${merged[i.path[0] as keyof RawInputs]}': ${i.message}`
    )
    throw new InputError(`Invalid input:\n${lines.join('\n')}`)
  }
  const runs = parsed.data.runs === 'auto' ? AUTO_RUNS[parsed.data.baseline] : parsed.data.runs
  const maxPairs = parsed.data['max-pairs']
  if (parsed.data.baseline === 'paired' && maxPairs !== 'auto' && maxPairs < runs) {
    throw new InputError(
      `Invalid input:\n  input 'max-pairs' = '${merged['max-pairs']}': max-pairs must be at least runs (${runs}), the pairs of the first look; set it to ${runs} for a paired run of fixed length`
    )
  }
  const contradictions = [
    ...resultFileProblems(parsed.data),
    ...budgetProblems(parsed.data, merged)
  ]
  if (contradictions.length) throw new InputError(`Invalid input:\n${contradictions.join('\n')}`)
  const { requests, 'pairs-budget-minutes': perCase, ...rest } = parsed.data
  return {
    ...rest,
    runs,
    requests: requests === 'auto' ? autoRequests(parsed.data.baseline) : requests,
    'max-pairs': maxPairs === 'auto' ? runs * AUTO_MAX_PAIRS_FACTOR : maxPairs,
    'paired-budget-minutes': pairedBudgetMinutes(perCase, rest),
    'alert-threshold': thresholdFor(parsed.data['alert-threshold'], parsed.data.baseline)
  }
}
