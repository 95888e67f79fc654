import { z } from 'zod'
import { isSlug } from '../text/escape'
import { parseInput } from '../config/input'
import type { PruneRule } from '../history'
import { pruneEntries, renderHook } from '../pipeline'
import type { Command } from './command'
import { existingHistoryDir, flagLocation, flagText as text, HISTORY_FLAGS } from './history-flags'
import { print } from './output'
import { count } from '../text/count'

const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/

/**
 * `YYYY-MM-DD` (midnight UTC) or an ISO time with its zone, and only dates that exist: Date.parse
 * would turn 2026-02-30 into 2 March, `1` into 2001 and `99999` into the year 99999.
 */
export function strictDate(text: string): Date | null {
  const m = DATE.exec(text)
  if (!m) return null
  const [, y, mo, d, h = '00', mi = '00', sec = '00'] = m
  const day = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec))
  const exists =
    day.getUTCFullYear() === +y &&
    day.getUTCMonth() === +mo - 1 &&
    day.getUTCDate() === +d &&
    day.getUTCHours() === +h &&
    day.getUTCMinutes() === +mi &&
    day.getUTCSeconds() === +sec
  if (!exists) return null
  // An offset is hours up to 23 and minutes up to 59 (+25:00 is no zone).
  const zone = /^[+-](\d{2}):(\d{2})$/.exec(m[7] ?? '')
  if (zone && (+zone[1] > 23 || +zone[2] > 59)) return null
  return new Date(m[7] ? text : `${text}T00:00:00Z`)
}

const RuleSchema = z
  .object({
    keep: z.string().regex(/^\d+$/, '--keep must be a whole number').transform(Number).optional(),
    before: z
      .string()
      .transform((v, ctx) => {
        const date = strictDate(v)
        if (!date) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `--before '${v}' must be a real date, 2024-01-01 or 2024-01-01T12:00:00Z (a zone as Z or ±hh:mm)`
          })
          return z.NEVER
        }
        return date
      })
      .optional(),
    cases: z
      .string()
      .transform(v => v.split(','))
      .refine(
        ids => ids.every(isSlug),
        '--case must be a comma-separated list of case ids such as 1,2'
      )
      .optional()
  })
  .refine(r => r.keep !== undefined || r.before !== undefined, {
    message: 'prune needs --keep N or --before DATE: stored entries are only deleted on purpose'
  })

export const pruneCommand: Command = {
  name: 'prune',
  summary:
    'delete stored history entries: keep the newest N per case and/or drop those before a date',
  options: {
    ...HISTORY_FLAGS,
    'max-entries': { type: 'string' },
    keep: { type: 'string', description: 'Keep the newest N entries of each case.' },
    before: {
      type: 'string',
      description: 'Delete entries evaluated before this date: 2024-01-01 or 2024-01-01T12:00:00Z.'
    },
    case: {
      type: 'string',
      description: 'Only these case ids, comma-separated (default: every case).'
    },
    'dry-run': { type: 'boolean', description: 'List what would be deleted; change nothing.' }
  },
  async run(values) {
    const location = flagLocation(values)
    const parsed = RuleSchema.safeParse({
      keep: text(values.keep) ?? undefined,
      before: text(values.before) ?? undefined,
      cases: text(values.case) ?? undefined
    })
    if (!parsed.success) throw new Error(parsed.error.issues.map(i => i.message).join('; '))
    const rule: PruneRule = parsed.data
    const dryRun = values['dry-run'] === true
    if (rule.before) print(`before: entries evaluated before ${rule.before.toISOString()}`)
    const render = renderHook({
      template: null,
      maxEntries: parseInput('max-entries', text(values['max-entries']))
    })
    const out = await pruneEntries(
      location.kind === 'dir' ? { ...location, dir: existingHistoryDir(location.dir) } : location,
      rule,
      dryRun,
      render
    )
    const verb = dryRun ? 'would delete' : 'deleted'
    // A dry run leaves the history as it is, so what would remain is the rest of it.
    const remain = dryRun ? out.all.length - out.removed.length : out.all.length
    for (const e of out.removed) print(`${verb} ${e.id}`)
    print(
      `${verb} ${count(out.removed.length, 'entry', 'entries')}; ${remain} ${dryRun ? 'would ' : ''}remain`
    )
    return 0
  }
}
