import { z } from 'zod'
import { pruneBranch } from '../history/branch-store'
import { pruneDir } from '../history/dir-store'
import type { PruneRule } from '../history/plan'
import type { Command } from './command'

const text = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null

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
    'history-dir': { type: 'string' },
    'history-repository': { type: 'string' },
    'gh-pages-branch': { type: 'string' },
    'github-token': { type: 'string' },
    keep: { type: 'string' },
    before: { type: 'string' },
    case: { type: 'string' },
    'dry-run': { type: 'boolean' }
  },
  async run(values) {
    const dir = text(values['history-dir'])
    if (!dir) throw new Error('prune needs --history-dir DIR')
    const parsed = RuleSchema.safeParse({
      keep: text(values.keep) ?? undefined,
      before: text(values.before) ?? undefined,
      cases: text(values.case) ?? undefined
    })
    if (!parsed.success) throw new Error(parsed.error.issues.map(i => i.message).join('; '))
    const rule: PruneRule = parsed.data
    const dryRun = values['dry-run'] === true
    const repo = text(values['history-repository'])
    const out = repo
      ? await pruneBranch({
          repo,
          branch: text(values['gh-pages-branch']) ?? 'gh-pages',
          dir,
          rule,
          dryRun,
          token: text(values['github-token']) ?? undefined
        })
      : await pruneDir({ dir, rule, dryRun })
    const verb = dryRun ? 'would delete' : 'deleted'
    // A dry run leaves the history as it is, so what would remain is the rest of it.
    const remain = dryRun ? out.all.length - out.removed.length : out.all.length
    for (const e of out.removed) console.log(`${verb} ${e.id}`)
    console.log(`${verb} ${out.removed.length} entries; ${remain} ${dryRun ? 'would ' : ''}remain`)
    return 0
  }
}
