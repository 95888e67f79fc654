import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { applyPrune, writeEntryFiles, type AppendOutcome, type PruneOutcome } from './dir-store'
import { HistoryError } from './errors'
import { checkRepository, GitError, gitIn, redactUrl, type Git, type GitIdentity } from './git'
import { ENTRIES_DIR, entryPath, monthOf, serializeEntry } from './layout'
import {
  caseIndexPath,
  CaseIndexSchema,
  idsOfFiles,
  INDEX_DIR,
  INDEX_SCHEMA,
  monthIndexPath,
  MonthIndexSchema,
  parseIndex,
  serializeIndex,
  type CaseIndex,
  type MonthIndex
} from './manifest'
import { upgradeEntry } from './migrate'
import { appendMessage, planAppend, type PruneRule } from './plan'
import { readHistory } from './read'
import type { CaseView, Render } from './render-hook'
import type { HistoryEntry } from './schema'
import { terminalSafe } from '../text/terminal'
import { editTree, itemAt, lsTree, readBlobs, writeBlob, type TreeChanges } from './tree'

interface BranchTarget {
  /** Remote URL or local path (a bare repository, or one whose checkout is not this branch). */
  repo: string
  /** Created as an orphan branch when absent. */
  branch: string
  /** History directory inside the branch, e.g. `benchmarks`. */
  dir: string
  token?: string
  /** A directory to keep the clone in; reusing it makes later fetches incremental. */
  workDir?: string
  identity?: GitIdentity
  /** How long rejected pushes are retried, from the first attempt (ms); 20 minutes by default. */
  retryForMs?: number
  /** Re-renders README/charts/dashboard so they land in the same commit as the entries. */
  render?: Render
  /** Write onto a branch that exists but holds no history (a site, or code). Off by default. */
  adopt?: boolean
  /** Where attempts, retries and warnings are reported; standard error (terminal-safe) by default. */
  log?: (line: string) => void
}

interface BranchCommit {
  /** The commit now at the branch tip, or null when the branch is still absent. */
  commit: string | null
  /** False when there was nothing to change (e.g. every entry was stored already). */
  pushed: boolean
  attempts: number
}

/** A branch append's outcome; `missing` names entries the index lists but the branch lacks. */
export type BranchAppend = BranchCommit &
  AppendOutcome & {
    missing: string[]
    /** Entries on the branch after the append, by the index (null when nothing was written). */
    total: number | null
  }

/** Exponential backoff with ±50% jitter, so writers that collided do not collide again. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(5000, 250 * 2 ** (attempt - 1)) * (0.5 + random())
}

const DEFAULT_RETRY_MS = 20 * 60_000
/** A push holds a ref lock for milliseconds: one that stays this long is a stale lock file. */
const STALE_LOCK_MS = 60_000

const REJECTED =
  /\[rejected\]|fetch first|non-fast-forward|cannot lock ref|failed to (update|lock) ref|incorrect old value/
const LOCKED = /cannot lock ref|failed to lock|Unable to create .*\.lock/

/** The line of git's output that says why, e.g. `! [rejected] … (fetch first)`. */
const gitReason = (err: GitError): string =>
  err.output
    .split('\n')
    .map(l => l.trim())
    .filter(l => !/^hint:|failed to push some refs/.test(l))
    .filter(l => /rejected|lock|error|fatal|denied|Authentication|Could not|unable/i.test(l))
    .join('; ') || err.output.trim()

function checkedDir(dir: string): string {
  const norm = path.posix.normalize(dir.replace(/\\/g, '/')).replace(/\/+$/, '')
  if (path.posix.isAbsolute(norm) || norm === '..' || norm.startsWith('../')) {
    throw new Error(`history-dir '${dir}' must be a path inside the branch`)
  }
  return norm
}

/** Lines quote git's output and the remote's names: control characters are made visible. */
const stderrLog = (line: string): void => console.error(terminalSafe(line))

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/** Where the history lives: the fields of a BranchTarget that reading needs. */
export type BranchLocation = Pick<
  BranchTarget,
  'repo' | 'branch' | 'dir' | 'token' | 'workDir' | 'identity'
>

/** The name the work repository gives the history's remote. */
const REMOTE = 'history'

interface Clone {
  git: Git
  /** The remote's name in the work repository, for fetch and push. */
  repo: string
  /** Its URL or path, for messages. */
  url: string
  /** The history directory inside the branch, normalised (`.` for the root). */
  dir: string
  historyDir: string
  /** How errors name files: `gh-pages:benchmarks/...`. */
  label: string
  /**
   * Fetches the branch tip, null when the branch is absent. With `depth`, a partial fetch: only
   * trees less than `depth` levels deep, no blobs (servers without filters send everything).
   */
  fetchTip(depth?: number): Promise<string | null>
  /** Fetches objects by id (trees with their tree-less contents, blobs), in one round trip. */
  fetchObjects(oids: string[]): Promise<void>
  /** Fetches the tip in full and makes the work tree exactly its tree (empty when absent). */
  checkout(): Promise<string | null>
  /** Pushes `commit` to the branch without force, and checks the remote's tip is that commit. */
  push(commit: string): Promise<void>
}

/** True when the work repository holds a partial fetch of the history remote. */
async function isPartial(git: Git): Promise<boolean> {
  try {
    return (await git(['config', '--get', `remote.${REMOTE}.promisor`])).trim() === 'true'
  } catch {
    return false
  }
}

/** Runs `use` in the caller's work dir, or in a temporary one removed afterwards. */
async function withClone<T>(loc: BranchLocation, use: (clone: Clone) => Promise<T>): Promise<T> {
  const dir = checkedDir(loc.dir)
  checkRepository(loc.repo)
  const repo = fs.existsSync(loc.repo) ? path.resolve(loc.repo) : loc.repo
  const work = loc.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-history-'))
  const git = gitIn(work, { token: loc.token, identity: loc.identity })
  const tracking = `refs/remotes/history/${loc.branch}`
  const fetchTip = async (depth?: number): Promise<string | null> => {
    const filter = depth === undefined ? [] : [`--filter=combine:tree:${depth}+blob:none`]
    const spec = `+refs/heads/${loc.branch}:${tracking}`
    try {
      await git(['fetch', '-q', '--no-tags', '--depth=1', ...filter, '--', REMOTE, spec])
    } catch (err) {
      if (err instanceof GitError && /couldn't find remote ref/.test(err.output)) return null
      throw err
    }
    return (await git(['rev-parse', '--verify', tracking])).trim()
  }
  try {
    fs.mkdirSync(work, { recursive: true })
    if (!fs.existsSync(path.join(work, '.git'))) await git(['init', '-q'])
    // A named remote: partial fetches register it as the promisor of what they leave out.
    await git(['config', `remote.${REMOTE}.url`, repo])
    return await use({
      git,
      repo: REMOTE,
      url: repo,
      dir,
      historyDir: path.join(work, dir),
      label: `${loc.branch}:${dir}`,
      fetchTip,
      async fetchObjects(oids) {
        if (oids.length === 0) return
        // Objects made or fetched by an earlier append in this clone are not fetched again.
        const list = ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']
        const local = new Set((await git(list)).split('\n'))
        oids = oids.filter(o => !local.has(o))
        if (oids.length === 0) return
        // As git's own lazy fetch asks: objects by id, no negotiation, no connectivity walk.
        const args = ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '-q', '--no-tags']
        const only = ['--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none']
        await git([...args, ...only, '--stdin', '--', REMOTE], `${[...new Set(oids)].join('\n')}\n`)
      },
      async push(commit) {
        const ref = `refs/heads/${loc.branch}`
        await git(['push', '-q', '--porcelain', '--', REMOTE, `${commit}:${ref}`])
        const remote = (await git(['ls-remote', '--', REMOTE, ref])).split(/\s/)[0]
        if (remote !== commit) {
          throw new Error(
            `pushed ${commit} to ${loc.branch}, but the remote shows ${remote || 'no branch'}`
          )
        }
      },
      async checkout() {
        // A clone that fetched partially would fetch each missing tree on its own at checkout:
        // the full path starts from an empty repository instead.
        if (await isPartial(git)) {
          fs.rmSync(path.join(work, '.git'), { recursive: true, force: true })
          await git(['init', '-q'])
          await git(['config', `remote.${REMOTE}.url`, repo])
        }
        const tip = await fetchTip()
        await git(tip ? ['reset', '-q', '--hard', tip] : ['read-tree', '--empty'])
        await git(['clean', '-q', '-ffdx'])
        return tip
      }
    })
  } finally {
    if (!loc.workDir) fs.rmSync(work, { recursive: true, force: true })
  }
}

/** The validated history at the branch tip (empty when the branch is absent); writes nothing. */
export async function readBranchHistory(loc: BranchLocation): Promise<HistoryEntry[]> {
  return withClone(loc, async clone =>
    (await clone.checkout()) ? readHistory(clone.historyDir, { label: clone.label }) : []
  )
}

const under = (dir: string, rel: string): string => (dir === '.' ? rel : `${dir}/${rel}`)

/** Tree levels a partial fetch takes: down to each case's list of months (`<dir>/entries/<case>`). */
const partialDepth = (dir: string): number => (dir === '.' ? 0 : dir.split('/').length) + 3

/** The tree of the history directory at `root`, or null when the branch has none. */
async function historyTree(git: Git, root: string, dir: string): Promise<string | null> {
  const item = dir === '.' ? { type: 'tree', oid: root } : await itemAt(git, root, dir)
  return item?.type === 'tree' ? item.oid : null
}

/**
 * A history branch is one this tool created: its history directory holds `index/` (written from
 * this version on) or `entries/` (written by earlier ones). Anything else, such as a branch of
 * code or a site, is written to only when the caller adopts it.
 */
async function checkHistoryBranch(
  clone: Clone,
  target: BranchTarget,
  dirTree: string | null
): Promise<{ entries: boolean; index: boolean }> {
  const names = dirTree ? (await lsTree(clone.git, dirTree)).map(i => i.name) : []
  const found = { entries: names.includes(ENTRIES_DIR), index: names.includes(INDEX_DIR) }
  if (!found.entries && !found.index && !target.adopt) {
    throw new Error(
      `branch '${target.branch}' of ${redactUrl(clone.url)} exists but holds no history in '${clone.dir}' ` +
        `(no ${ENTRIES_DIR}/ or ${INDEX_DIR}/ there): refusing to write onto it. ` +
        'Pick another gh-pages-branch / history-dir, or pass --adopt-branch (input adopt-branch: true) to add the history to it.'
    )
  }
  return found
}

/** The outcome of one attempt: what it would add, and the commit to push (null: nothing to push). */
interface Attempt {
  tip: string | null
  commit: string | null
  outcome: AppendOutcome & { missing: string[]; total: number | null }
  /** Entry path → blob id of every entry added: checked in the pushed tree. */
  added: Map<string, string>
}

interface CaseTree {
  /** The case's directory `entries/<case>`. */
  tree: string
  /** Month → its directory's tree id. */
  months: Map<string, string>
}

/** Each case directory of `entries/` at the tip, by its (encoded) name. */
async function caseTrees(git: Git, dirTree: string | null): Promise<Map<string, CaseTree>> {
  const out = new Map<string, CaseTree>()
  const entries = dirTree ? await itemAt(git, dirTree, ENTRIES_DIR) : null
  if (entries?.type !== 'tree') return out
  for (const c of await lsTree(git, entries.oid)) {
    if (c.type !== 'tree') continue
    const months = (await lsTree(git, c.oid)).filter(m => m.type === 'tree')
    out.set(c.name, { tree: c.oid, months: new Map(months.map(m => [m.name, m.oid])) })
  }
  return out
}

/** Blob ids of the files at `paths` (relative to the history tree) whose trees are local. */
async function blobIds(
  git: Git,
  dirTree: string | null,
  paths: string[]
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  if (!dirTree) return out
  for (const p of paths) {
    const item = await itemAt(git, dirTree, p)
    if (item?.type === 'blob') out.set(p, item.oid)
  }
  return out
}

/** One case and month an attempt looks into: its files at the tip, and what the index expects. */
interface MonthState {
  caseId: string
  month: string
  /** File name → blob id (mode checked: no links). */
  files: Map<string, string>
  expected: MonthIndex | null
}

const encoded = (caseId: string): string => caseIndexPath(caseId).slice(INDEX_DIR.length + 1, -5)
const monthKey = (caseId: string, month: string) => `${caseId}\0${month}`

/**
 * One incremental append on a partial clone. It fetches the trees down to each case's list of
 * months and each case's index head (a few hundred bytes), and for the months it touches their
 * tree, month index and dashboard data. Stored entries are not read again: the index heads say
 * whether anything changed behind this tool's back (then that case's months are all compared).
 */
async function incrementalAttempt(
  clone: Clone,
  target: BranchTarget & { entries: HistoryEntry[]; message?: string },
  withReport: boolean,
  log: (line: string) => void
): Promise<Attempt> {
  const { git, dir } = clone
  const tip = await clone.fetchTip(partialDepth(dir))
  const root = tip ? (await git(['rev-parse', `${tip}^{tree}`])).trim() : null
  const dirTree = root ? await historyTree(git, root, dir) : null
  if (tip) await checkHistoryBranch(clone, target, dirTree)
  const name = (rel: string) => `${target.branch}:${under(dir, rel)}`

  // Every case's index head and the month index files it has (names only; the tree is local).
  const trees = await caseTrees(git, dirTree)
  const headBlobs = new Map<string, string>()
  const monthIndexes = new Map<string, Set<string>>()
  const indexTree = dirTree ? await itemAt(git, dirTree, INDEX_DIR) : null
  for (const i of indexTree?.type === 'tree' ? await lsTree(git, indexTree.oid) : []) {
    if (i.type === 'blob' && i.name.endsWith('.json')) headBlobs.set(i.name.slice(0, -5), i.oid)
    if (i.type === 'tree') {
      const files = (await lsTree(git, i.oid)).map(f => f.name.replace(/\.json$/, ''))
      monthIndexes.set(i.name, new Set(files))
    }
  }
  await clone.fetchObjects([...headBlobs.values()])
  const headTexts = await readBlobs(git, [...headBlobs.values()])
  const heads = new Map<string, CaseIndex>()
  for (const [enc, oid] of headBlobs) {
    const file = name(`${INDEX_DIR}/${enc}.json`)
    const head = parseIndex(CaseIndexSchema, file, headTexts.get(oid)!)
    if (encoded(head.caseId) !== enc) {
      throw new HistoryError(file, `indexes case '${head.caseId}', which belongs elsewhere`)
    }
    heads.set(enc, head)
  }

  // Months to look into: those the new entries go to, and every month of a case whose directory
  // changed behind the index (or that misses entries already, so the warning repeats).
  const look = new Map<string, { caseId: string; month: string }>()
  for (const e of target.entries) {
    const month = monthOf(e.timestampEval)
    look.set(monthKey(e.caseId, month), { caseId: e.caseId, month })
  }
  const audited = new Set<string>()
  for (const enc of new Set([...heads.keys(), ...trees.keys()])) {
    const head = heads.get(enc)
    const actual = trees.get(enc)
    if (head && head.missing === 0 && head.tree === (actual?.tree ?? null)) continue
    audited.add(enc)
    const caseId = head?.caseId ?? caseIdOf(enc, name)
    const months = new Set([...(actual?.months.keys() ?? []), ...(monthIndexes.get(enc) ?? [])])
    for (const month of months) look.set(monthKey(caseId, month), { caseId, month })
  }

  const render = target.render
  const lookList = [...look.values()]
  const sidePaths = lookList.flatMap(l => [
    monthIndexPath(l.caseId, l.month),
    ...(render ? [render.monthDataPath(l.caseId, l.month)] : [])
  ])
  const side = await blobIds(git, dirTree, sidePaths)
  const monthOids = lookList
    .map(l => trees.get(encoded(l.caseId))?.months.get(l.month))
    .filter((o): o is string => !!o)
  await clone.fetchObjects([...monthOids, ...side.values()])
  const sideTexts = await readBlobs(git, [...side.values()])
  const text = (p: string): string | null => {
    const oid = side.get(p)
    return oid ? sideTexts.get(oid)! : null
  }

  const states = new Map<string, MonthState>()
  for (const l of lookList) {
    const enc = encoded(l.caseId)
    const oid = trees.get(enc)?.months.get(l.month)
    const files = new Map<string, string>()
    for (const item of oid ? await lsTree(git, oid) : []) {
      const rel = `${ENTRIES_DIR}/${enc}/${l.month}/${item.name}`
      if (item.mode !== '100644' && item.mode !== '100755') {
        throw new HistoryError(
          name(rel),
          'is not a plain file (a link or a directory); a history holds plain files only'
        )
      }
      files.set(item.name, item.oid)
    }
    const mPath = monthIndexPath(l.caseId, l.month)
    const before = text(mPath)
    const expected = before ? parseIndex(MonthIndexSchema, name(mPath), before) : null
    states.set(monthKey(l.caseId, l.month), { ...l, files, expected })
  }

  const plan = planAppend(
    e =>
      states
        .get(monthKey(e.caseId, monthOf(e.timestampEval)))!
        .files.has(path.posix.basename(entryPath(e))),
    target.entries
  )
  if (plan.add.length === 0 && !(withReport && target.entries.length === 0)) {
    const outcome = { added: [], present: plan.present, all: [], missing: [], total: null }
    return { tip, commit: null, added: new Map(), outcome }
  }
  const changes: TreeChanges = new Map()
  const added = new Map<string, string>()
  for (const e of plan.add) {
    const rel = entryPath(e)
    const blob = await writeBlob(git, serializeEntry(e))
    changes.set(rel, blob)
    added.set(rel, blob)
  }

  // Month indexes and dashboard data of the months looked into; the missing are named and kept.
  const missing: string[] = []
  const newHeads = new Map<string, CaseIndex>()
  const monthChanges = new Map<string, Map<string, string | null>>()
  for (const s of states.values()) {
    const enc = encoded(s.caseId)
    const newHere = plan.add.filter(
      x => x.caseId === s.caseId && monthOf(x.timestampEval) === s.month
    )
    const fileChanges: TreeChanges = new Map(
      newHere.map(e => [path.posix.basename(entryPath(e)), added.get(entryPath(e))!])
    )
    const monthTree = await editTree(git, trees.get(enc)?.months.get(s.month) ?? null, fileChanges)
    const names = new Set([...s.files.keys(), ...fileChanges.keys()])
    const entries = { ...(s.expected?.entries ?? {}), ...idsOfFiles([...names]) }
    const gone = Object.keys(entries).filter(f => !names.has(f))
    missing.push(...gone.map(f => entries[f]))
    const index: MonthIndex = {
      schema: INDEX_SCHEMA,
      caseId: s.caseId,
      month: s.month,
      tree: monthTree,
      entries
    }
    changes.set(monthIndexPath(s.caseId, s.month), await writeBlob(git, serializeIndex(index)))
    const perCase = monthChanges.get(enc) ?? new Map()
    perCase.set(s.month, monthTree)
    monthChanges.set(enc, perCase)
    const head = newHeads.get(enc) ?? {
      schema: INDEX_SCHEMA,
      caseId: s.caseId,
      tree: null,
      // An audited case is counted afresh, month by month; others add what they append.
      entries: audited.has(enc) ? 0 : (heads.get(enc)?.entries ?? 0),
      missing: audited.has(enc) ? 0 : (heads.get(enc)?.missing ?? 0)
    }
    head.entries += audited.has(enc) ? Object.keys(entries).length : newHere.length
    head.missing += audited.has(enc) ? gone.length : 0
    newHeads.set(enc, head)
    if (render && newHere.length > 0) {
      const dPath = render.monthDataPath(s.caseId, s.month)
      const merged = render.mergeMonthData(name(dPath), s.caseId, s.month, text(dPath), newHere)
      changes.set(dPath, await writeBlob(git, merged))
    }
  }
  for (const [enc, head] of newHeads) {
    const months: TreeChanges = new Map(
      [...(monthChanges.get(enc) ?? [])].map(([m, t]) => [m, t ? { tree: t } : null])
    )
    head.tree = await editTree(git, trees.get(enc)?.tree ?? null, months)
    changes.set(`${INDEX_DIR}/${enc}.json`, await writeBlob(git, serializeIndex(head)))
  }
  if (missing.length > 0) {
    log(
      `WARNING: ${target.branch}:${dir} lacks ${missing.length} entries its index lists: ${missing.join(', ')}. ` +
        'A force-push or a hand edit removed them. They stay in the index and the dashboard data so the loss stays visible; ' +
        `restore them from an earlier commit of ${target.branch}, or delete them on purpose with prune.`
    )
  }

  const allHeads = new Map([...heads, ...newHeads])
  const total = [...allHeads.values()].reduce((n, h) => n + h.entries - h.missing, 0)
  if (withReport && render) {
    const months = new Map<string, Map<string, string | null>>()
    for (const [enc, head] of allHeads) {
      const list = new Map<string, string | null>(
        [...(monthIndexes.get(enc) ?? [])].map(m => [m, trees.get(enc)?.months.get(m) ?? null])
      )
      for (const [m, t] of monthChanges.get(enc) ?? []) list.set(m, t)
      months.set(head.caseId, list)
    }
    const report = await renderReport(clone, allHeads, months, changes, render, name)
    for (const [rel, blob] of report) changes.set(rel, blob)
  }

  const prefixed: TreeChanges = new Map([...changes].map(([rel, oid]) => [under(dir, rel), oid]))
  const newRoot = await editTree(git, root, prefixed)
  if (!newRoot || newRoot === root) {
    const outcome = { added: [], present: plan.present, all: [], missing, total }
    return { tip, commit: null, added, outcome }
  }
  // Nothing may get lost between writing and committing: every added entry is in the new tree.
  for (const [rel, blob] of added) {
    const item = await itemAt(git, newRoot, under(dir, rel))
    if (item?.oid !== blob) throw new Error(`internal error: ${rel} is not in the tree to push`)
  }
  const message =
    plan.add.length > 0 ? (target.message ?? appendMessage(plan.add)) : 'history: render the report'
  const parents = tip ? ['-p', tip] : []
  const commit = (await git(['commit-tree', newRoot, ...parents, '-m', message])).trim()
  return {
    tip,
    commit,
    added,
    outcome: {
      added: plan.add.map(e => e.id),
      present: plan.present,
      all: plan.add,
      missing,
      total
    }
  }
}

/** A case directory's id, from the name it is stored under. */
function caseIdOf(encodedName: string, name: (rel: string) => string): string {
  const id = idsOfFiles([`${encodedName}.json`])[`${encodedName}.json`]
  if (!id) {
    throw new HistoryError(name(`${ENTRIES_DIR}/${encodedName}`), 'is not a case directory')
  }
  return id
}

/**
 * Renders README, charts and pages from each case's newest entries: its newest months, fetched a
 * month at a time, until they hold `render.recent` entries. Returns path → blob id of the files.
 */
async function renderReport(
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

/**
 * Runs `attempt` until its commit lands, re-running it on the new tip while pushes are rejected
 * (another writer pushed first), for up to `retryForMs`. Every retry is logged with git's reason;
 * giving up says git's last reason, and a ref lock that never clears is reported as stale.
 */
async function pushLoop<T extends { tip: string | null; commit: string | null }>(
  clone: Clone,
  target: BranchTarget,
  log: (line: string) => void,
  attempt: (n: number) => Promise<T>
): Promise<{ result: T; attempts: number; pushed: boolean }> {
  const started = Date.now()
  const budget = target.retryForMs ?? DEFAULT_RETRY_MS
  let lockedSince: number | null = null
  for (let n = 1; ; n++) {
    const result = await attempt(n)
    if (!result.commit) return { result, attempts: n, pushed: false }
    try {
      await clone.push(result.commit)
      if (n > 1)
        log(
          `history: landed on ${target.branch} at attempt ${n} after ${((Date.now() - started) / 1000).toFixed(1)} s`
        )
      return { result, attempts: n, pushed: true }
    } catch (err) {
      if (!(err instanceof GitError && REJECTED.test(err.output))) throw err
      const reason = gitReason(err)
      const now = Date.now()
      lockedSince = LOCKED.test(err.output) ? (lockedSince ?? now) : null
      const stale = lockedSince !== null && now - lockedSince > STALE_LOCK_MS
      const rejected = `history: push to ${target.branch} rejected at attempt ${n} (${reason})`
      if (stale || now - started > budget) {
        log(rejected)
        throw new Error(
          `push to ${target.branch} failed ${n} times over ${((now - started) / 1000).toFixed(0)} s; giving up. ` +
            `git said: ${reason}` +
            (stale
              ? ` (the lock has stayed for over ${STALE_LOCK_MS / 1000} s: a stale lock file in the remote? remove it there)`
              : '')
        )
      }
      const wait = backoffMs(n)
      log(`${rejected}; retrying in ${(wait / 1000).toFixed(1)} s`)
      await sleep(wait)
    }
  }
}

/**
 * Appends entries to the history on a git branch and pushes without force; appending entries that
 * are all stored already pushes nothing. An append reads only what it changes (see
 * docs/history.md): the trees down to each case's months, the index, and for the months it
 * touches their tree, index and dashboard data; README and charts are rendered from each case's
 * newest entries. A rejected push is retried on the new tip without re-rendering README and charts;
 * once landed, one more commit renders them, unless a later writer already will. The first append
 * to a branch written by an earlier version (entries, no index) reads it all once and indexes it.
 */
export async function appendToBranch(
  target: BranchTarget & { entries: HistoryEntry[]; message?: string }
): Promise<BranchAppend> {
  const log = target.log ?? stderrLog
  return withClone(target, async clone => {
    const legacy = await needsFullIndex(clone, target)
    if (legacy) return fullAppend(clone, target, log)
    const landed = await pushLoop(clone, target, log, n =>
      incrementalAttempt(clone, target, n === 1, log)
    )
    const out = landed.result.outcome
    const ref = `refs/heads/${target.branch}`
    const stillTip = async () =>
      (await clone.git(['ls-remote', '--', REMOTE, ref])).split(/\s/)[0] === landed.result.commit
    if (landed.pushed && landed.attempts > 1 && target.render && !(await stillTip())) {
      log('history: README and charts left to the writer that pushed after this one')
    } else if (landed.pushed && landed.attempts > 1 && target.render) {
      // The landed commit carries entries and dashboard data but an older README: render it now.
      const again = await incrementalAttempt(
        clone,
        { ...target, entries: [] },
        true,
        () => undefined
      )
      if (again.commit) {
        try {
          await clone.push(again.commit)
          landed.result.commit = again.commit
        } catch (err) {
          if (!(err instanceof GitError && REJECTED.test(err.output))) throw err
          log(
            `history: README and charts left to the writer that pushed after this one (${gitReason(err)})`
          )
        }
      }
    }
    return {
      commit: landed.result.commit ?? landed.result.tip,
      pushed: landed.pushed,
      attempts: landed.attempts,
      added: out.added,
      present: out.present,
      all: out.all,
      missing: out.missing,
      total: out.total
    }
  })
}

/** True when the branch holds entries but no index: written by an earlier version. */
async function needsFullIndex(clone: Clone, target: BranchTarget): Promise<boolean> {
  const tip = await clone.fetchTip(partialDepth(clone.dir))
  if (!tip) return false
  const root = (await clone.git(['rev-parse', `${tip}^{tree}`])).trim()
  const found = await checkHistoryBranch(
    clone,
    target,
    await historyTree(clone.git, root, clone.dir)
  )
  return found.entries && !found.index
}

/**
 * Writes the index of a checked-out history: one file per case and month, from the trees of
 * `entries/` as staged. Returns nothing; the files are written into the work tree.
 */
async function writeIndexFiles(clone: Clone): Promise<void> {
  const { git, historyDir, dir } = clone
  fs.rmSync(path.join(historyDir, INDEX_DIR), { recursive: true, force: true })
  await git(['add', '-A', '-f', '--', '.'])
  const root = (await git(['write-tree'])).trim()
  const trees = await caseTrees(git, await historyTree(git, root, dir))
  for (const [enc, c] of trees) {
    const caseId = caseIdOf(enc, rel => `${clone.label}/${rel}`)
    let count = 0
    for (const [month, tree] of c.months) {
      const files = (await lsTree(git, tree)).map(i => i.name)
      count += files.length
      const file = path.join(historyDir, monthIndexPath(caseId, month))
      fs.mkdirSync(path.dirname(file), { recursive: true })
      const entries = idsOfFiles(files)
      fs.writeFileSync(file, serializeIndex({ schema: INDEX_SCHEMA, caseId, month, tree, entries }))
    }
    const head: CaseIndex = {
      schema: INDEX_SCHEMA,
      caseId,
      tree: c.tree,
      entries: count,
      missing: 0
    }
    fs.writeFileSync(path.join(historyDir, caseIndexPath(caseId)), serializeIndex(head))
  }
}

/**
 * One read-modify-push transaction on a full checkout, repeated on a fresh tip while pushes are
 * rejected: reads and validates the whole history, applies `change`, renders everything, rebuilds
 * the index, and stages with `add -f`, so no ignore rule can leave a file out.
 */
async function fullUpdate(
  clone: Clone,
  target: BranchTarget,
  log: (line: string) => void,
  change: (
    historyDir: string,
    label: string
  ) => { changed: boolean; all: HistoryEntry[]; message: string }
): Promise<{ commit: string | null; attempts: number; pushed: boolean }> {
  const { git, historyDir, label } = clone
  const landed = await pushLoop(clone, target, log, async () => {
    const tip = await clone.checkout()
    if (tip) {
      const root = (await git(['rev-parse', `${tip}^{tree}`])).trim()
      await checkHistoryBranch(clone, target, await historyTree(git, root, clone.dir))
    }
    const c = change(historyDir, label)
    if (!c.changed) return { tip, commit: null }
    if (target.render) await target.render.full(historyDir, c.all)
    await writeIndexFiles(clone)
    await git(['add', '-A', '-f', '--', '.'])
    const tree = (await git(['write-tree'])).trim()
    const commit = (
      await git(['commit-tree', tree, ...(tip ? ['-p', tip] : []), '-m', c.message])
    ).trim()
    return { tip, commit }
  })
  return {
    commit: landed.result.commit ?? landed.result.tip,
    attempts: landed.attempts,
    pushed: landed.pushed
  }
}

async function fullAppend(
  clone: Clone,
  target: BranchTarget & { entries: HistoryEntry[]; message?: string },
  log: (line: string) => void
): Promise<BranchAppend> {
  let outcome: AppendOutcome = { added: [], present: [], all: [] }
  const commit = await fullUpdate(clone, target, log, (historyDir, label) => {
    const existing = readHistory(historyDir, { label })
    const ids = new Set(existing.map(e => e.id))
    const plan = planAppend(e => ids.has(e.id), target.entries)
    writeEntryFiles(historyDir, plan.add)
    outcome = {
      added: plan.add.map(e => e.id),
      present: plan.present,
      all: [...existing, ...plan.add]
    }
    return {
      // The first write of this version indexes the branch even when nothing is new.
      changed: true,
      all: outcome.all,
      message:
        plan.add.length > 0
          ? (target.message ?? appendMessage(plan.add))
          : 'history: index the history'
    }
  })
  return { ...commit, ...outcome, missing: [], total: outcome.all.length }
}

/** Deletes the entries the rule selects from the history on a git branch, in one commit. */
export async function pruneBranch(
  target: BranchTarget & { rule: PruneRule; dryRun?: boolean }
): Promise<BranchCommit & PruneOutcome> {
  const log = target.log ?? stderrLog
  let outcome: PruneOutcome = { removed: [], all: [] }
  const commit = await withClone(target, clone =>
    fullUpdate(clone, target, log, (historyDir, label) => {
      outcome = applyPrune(historyDir, target.rule, target.dryRun ?? false, label)
      const cases = [...new Set(outcome.removed.map(e => e.caseId))].sort().join(',')
      const n = outcome.removed.length
      return {
        changed: !target.dryRun && n > 0,
        all: outcome.all,
        message: `history: prune ${n} ${n === 1 ? 'entry' : 'entries'} of cases ${cases}`
      }
    })
  )
  return { ...commit, ...outcome }
}
