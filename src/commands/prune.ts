import { z } from 'zod'
import { parseInputs } from '../config/inputs'
import { pruneBranch, pruneDir, type PruneRule } from '../history'
import { renderHook, renderSettings } from '../record'
import type { Command } from './command'
import {
  existingHistoryDir,
  flagText as text,
  HISTORY_FLAGS,
  historyLocation
} from './history-flags'

const RuleSchema = z
  .object({
    keep: z.string().regex(/^\d+$/, '--keep must be a whole number').transform(Number).optional(),
    before: z
      .string()
      .refine(v => !Number.isNaN(Date.parse(v)), '--before must be a date such as 2024-01-01')
      .transform(v => new Date(v))
      .optional(),
    cases: z
      .string()
      .regex(/^[\w-]+(,[\w-]+)*$/, '--case must be a comma-separated list such as 1,2')
      .transform(v => v.split(','))
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
    keep: { type: 'string' },
    before: { type: 'string' },
    case: { type: 'string' },
    'dry-run': { type: 'boolean' }
  },
  async run(values) {
    const location = historyLocation(values)
    const parsed = RuleSchema.safeParse({
      keep: text(values.keep) ?? undefined,
      before: text(values.before) ?? undefined,
      cases: text(values.case) ?? undefined
    })
    if (!parsed.success) throw new Error(parsed.error.issues.map(i => i.message).join('; '))
    const rule: PruneRule = parsed.data
    const dryRun = values['dry-run'] === true
    const render = renderHook(
      renderSettings(parseInputs({ 'max-entries': text(values['max-entries']) ?? undefined }))
    )
    const out =
      location.kind === 'branch'
        ? await pruneBranch({ ...location, rule, dryRun, render })
        : await pruneDir({ dir: existingHistoryDir(location.dir), rule, dryRun, render })
    const verb = dryRun ? 'would delete' : 'deleted'
    // A dry run leaves the history as it is, so what would remain is the rest of it.
    const remain = dryRun ? out.all.length - out.removed.length : out.all.length
    for (const e of out.removed) console.log(`${verb} ${e.id}`)
    console.log(`${verb} ${out.removed.length} entries; ${remain} ${dryRun ? 'would ' : ''}remain`)
    return 0
  }
}
