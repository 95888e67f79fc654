import { parseInputs } from '../config/inputs'
import { importLegacy } from '../history'
import { appendEntries, describeLocation, renderHook, renderSettings } from '../record'
import type { Command } from './command'
import { flagText, HISTORY_FLAGS, historyLocation } from './history-flags'

export const importLegacyCommand: Command = {
  name: 'import-legacy',
  summary:
    "import the old pipeline's history<case>.jsonl files into the history (idempotent) and re-render the report",
  options: { from: { type: 'string' }, ...HISTORY_FLAGS, 'max-entries': { type: 'string' } },
  async run(values) {
    const from = flagText(values.from)
    if (!from) throw new Error('import-legacy needs --from DIR (the folder of history1..4.jsonl)')
    const location = historyLocation(values)
    const entries = importLegacy(from)
    const settings = renderSettings(
      parseInputs({ 'max-entries': flagText(values['max-entries']) ?? undefined })
    )
    const out = await appendEntries(entries, location, renderHook(settings))
    const total = out.total === null ? '' : `; ${out.total} entries in the history`
    console.log(
      `imported ${out.added.length} of ${entries.length} legacy entries into ${describeLocation(location)}` +
        ` (${out.present.length} were stored already${total})`
    )
    return 0
  }
}
