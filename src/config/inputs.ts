import { z } from 'zod'

/**
 * Every option of the suite, as the action's inputs and the CLI's flags spell it (kebab-case).
 * Both front ends hand raw strings to `parseInputs`, so one schema decides what is valid.
 */
const int = (name: string, min: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine(n => n >= min, `${name} must be at least ${min}`)

const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine(v => ['true', 'false'].includes(v), `${name} must be true or false`)
    .transform(v => v === 'true')

const optionalText = z
  .string()
  .trim()
  .transform(v => (v === '' ? null : v))

export const GNES_VERSION_PATTERN = /^0\.0\.(\d+)$/

export const InputsSchema = z.object({
  cases: z
    .string()
    .trim()
    .transform(v => v.split(',').map(s => s.trim()))
    .refine(
      list => list.every(s => s !== ''),
      'cases must be a comma-separated list of case ids and/or topology files, such as 1,2,3,4'
    ),
  docs: int('docs', 1),
  'batch-size': int('batch-size', 1),
  'doc-bytes': int('doc-bytes', 1),
  runs: int('runs', 1),
  'warmup-runs': int('warmup-runs', 0),
  'case-timeout': int('case-timeout', 10),
  engine: z.enum(['auto', 'docker', 'local'], {
    errorMap: () => ({ message: 'engine must be one of auto, docker, local' })
  }),
  'gnes-version': z
    .string()
    .trim()
    .regex(GNES_VERSION_PATTERN, 'gnes-version must look like 0.0.47'),
  topology: z
    .string()
    .trim()
    .transform(v => (v === '' ? null : v.split(',').map(s => s.trim()))),
  'out-dir': z.string().trim().min(1, 'out-dir must not be empty'),
  image: optionalText,
  dockerfile: optionalText,
  'docker-context': optionalText,
  'base-image': z.string().trim().min(1, 'base-image must not be empty'),
  wheelhouse: optionalText,
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
  'max-entries': int('max-entries', 1),
  'alert-threshold': z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?%?$/, 'alert-threshold must be a percentage such as 10%')
    .transform(v => Number(v.replace('%', '')) / 100),
  'fail-on-regression': bool('fail-on-regression'),
  'comment-on-pr': bool('comment-on-pr')
})

export type Inputs = z.infer<typeof InputsSchema>
export type RawInputs = Record<keyof z.input<typeof InputsSchema>, string>

/** Defaults shared by action.yml (kept in sync by a test) and the CLI. */
export const DEFAULTS: RawInputs = {
  cases: '1,2,3,4',
  docs: '500',
  'batch-size': '10',
  'doc-bytes': '1000000',
  runs: '3',
  'warmup-runs': '1',
  'case-timeout': '900',
  engine: 'auto',
  'gnes-version': '0.0.47',
  topology: '',
  'out-dir': 'out',
  image: '',
  dockerfile: '',
  'docker-context': '',
  'base-image': 'python:3.11-slim',
  wheelhouse: '',
  cpus: '',
  memory: '',
  record: 'auto',
  'gh-pages-branch': 'gh-pages',
  'history-dir': 'benchmarks',
  'history-repository': '',
  'auto-push': 'true',
  'adopt-branch': 'false',
  'github-token': '',
  'readme-template': '',
  'max-entries': '50',
  'alert-threshold': '10%',
  'fail-on-regression': 'false',
  'comment-on-pr': 'true'
}

export class InputError extends Error {}

/** The case files a run uses: `topology` when given, else `cases`. */
export const caseList = (inputs: Inputs): string[] => inputs.topology ?? inputs.cases

/** Validates raw strings; the error names every bad input and what it expected. */
export function parseInputs(raw: Partial<RawInputs>): Inputs {
  const given = Object.entries(raw).filter(([, v]) => v !== undefined)
  const merged: RawInputs = { ...DEFAULTS, ...Object.fromEntries(given) }
  const parsed = InputsSchema.safeParse(merged)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      i => `  input '${i.path.join('.')}' = '${merged[i.path[0] as keyof RawInputs]}': ${i.message}`
    )
    throw new InputError(`Invalid input:\n${lines.join('\n')}`)
  }
  return parsed.data
}
