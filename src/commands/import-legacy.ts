import { parseInput } from '../config/input'
import { importLegacy } from '../history'
import { appendEntries, describeLocation, renderHook } from '../pipeline'
import type { Command } from './command'
import { flagLocation, flagText, HISTORY_FLAGS } from './history-flags'
import { print } from './output'
import { count } from '../text/count'

export const importLegacyCommand: Command = {
  name: 'import-legacy',
  summary:
    "import the old pipeline's history<case>.jsonl files into the history (idempotent) and re-render the report",
  options: {
    from: { type: 'string', description: 'The folder of the old history1..4.jsonl files.' },
    ...HISTORY_FLAGS,
    'max-entries': { type: 'string' }
  },
  async run(values) {
    const from = flagText(values.from)
    if (!from) throw new Error('import-legacy needs --from DIR (the folder of history1..4.jsonl)')
    const location = flagLocation(values)
    const entries = importLegacy(from)
    const render = renderHook({
      template: null,
      maxEntries: parseInput('max-entries', flagText(values['max-entries']))
    })
    const out = await appendEntries(entries, location, render)
    const total =
      out.total === null ? '' : `; ${count(out.total, 'entry', 'entries')} in the history`
    print(
      `imported ${out.added.length} of ${entries.length} legacy entries into ${describeLocation(location)}` +
        ` (${out.present.length} were stored already${total})`
    )
    return 0
  }
}
