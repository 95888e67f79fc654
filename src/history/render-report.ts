import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { CaseIndex } from './manifest'
import type { Clone } from './clone'
import { HistoryError } from './errors'
import { ENTRIES_DIR } from './layout'
import { upgradeEntry } from './migrate'
import type { CaseView, Render } from './render-hook'
import { lsTree, readBlobs, type TreeChanges } from './tree'

/**
 * Renders README, charts and pages from each case's newest entries: its newest months, fetched a
 * month at a time, until they hold `render.recent` entries. Returns path → blob id of the files.
 */
export async function renderReport(
  clone: Clone,
  heads: Map<string, CaseIndex>,
  months: Map<string, Map<string, string | null>>,
  changes: TreeChanges,
  render: Render,
  name: (rel: string) => string
): Promise<Map<string, string>> {
  const { git } = clone
  const written = new Set([...changes.values()].filter((v): v is string => typeof v === 'string'))
  const views: CaseView[] = []
  const wanted: { view: CaseView; rel: string; oid: string }[] = []
  for (const [enc, head] of heads) {
    const list = [...(months.get(head.caseId) ?? [])]
      .filter((e): e is [string, string] => !!e[1])
      .sort(([a], [b]) => (a < b ? 1 : -1))
    const view: CaseView = {
      id: head.caseId,
      recent: [],
      total: head.entries - head.missing,
      months: list.map(([m]) => m)
    }
    views.push(view)
    let count = 0
    for (const [m, tree] of list) {
      if (count >= render.recent) break
      if (!written.has(tree)) await clone.fetchObjects([tree])
      for (const item of await lsTree(git, tree)) {
        wanted.push({ view, rel: `${ENTRIES_DIR}/${enc}/${m}/${item.name}`, oid: item.oid })
        count++
      }
    }
  }
  await clone.fetchObjects(wanted.map(w => w.oid).filter(o => !written.has(o)))
  const texts = await readBlobs(
    git,
    wanted.map(w => w.oid)
  )
  for (const w of wanted) {
    let raw: unknown
    try {
      raw = JSON.parse(texts.get(w.oid)!)
    } catch (err) {
      throw new HistoryError(name(w.rel), `not valid JSON (${(err as Error).message})`)
    }
    try {
      w.view.recent.push(upgradeEntry(raw))
    } catch (err) {
      throw new HistoryError(name(w.rel), (err as Error).message)
    }
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-report-'))
  try {
    await render.report(scratch, views)
    const files = fs
      .readdirSync(scratch, { recursive: true, withFileTypes: true })
      .filter(d => d.isFile())
      .map(d => path.relative(scratch, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    if (files.length === 0) return new Map()
    const paths = `${files.map(f => path.join(scratch, f)).join('\n')}\n`
    const oids = (await git(['hash-object', '-w', '--stdin-paths'], paths)).trim().split('\n')
    return new Map(files.map((f, i) => [f, oids[i]]))
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}
