import { appendToBranch } from '../history/branch-store'
import { appendToDir } from '../history/dir-store'
import { importLegacy } from '../history/legacy'
import type { Command } from './command'

const text = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null

export const importLegacyCommand: Command = {
  name: 'import-legacy',
  summary: "import the old pipeline's history<case>.jsonl files into the history (idempotent)",
  options: {
    from: { type: 'string' },
    'history-dir': { type: 'string' },
    'history-repository': { type: 'string' },
    'gh-pages-branch': { type: 'string' },
    'github-token': { type: 'string' }
  },
  async run(values) {
    const from = text(values.from)
    const dir = text(values['history-dir'])
    if (!from || !dir) {
      throw new Error(
        'import-legacy needs --from DIR and --history-dir DIR (with --history-repository, a directory inside the branch)'
      )
    }
    const entries = importLegacy(from)
    const repo = text(values['history-repository'])
    const branch = text(values['gh-pages-branch']) ?? 'gh-pages'
    const out = repo
      ? await appendToBranch({
          repo,
          branch,
          dir,
          entries,
          token: text(values['github-token']) ?? undefined
        })
      : await appendToDir({ dir, entries })
    const where = repo ? `${repo} ${branch}:${dir}` : dir
    console.log(
      `imported ${out.added.length} of ${entries.length} legacy entries into ${where}` +
        ` (${out.present.length} were stored already; ${out.all.length} entries in the history)`
    )
    return 0
  }
}
