/**
 * Text from topology files, history files and pull requests lands in the README, the job summary,
 * the pull-request comment, Mermaid diagrams, file names and the terminal. One module escapes it
 * for all of them (src/text/escape.ts, src/text/terminal.ts); these tests feed hostile text
 * through the real renderers and read what they wrote.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { HistoryEntrySchema, readHistory } from '../src/history'
import { entryPath } from '../src/site/layout'
import { serializeEntry } from '../src/history/schema'
import { renderReport } from '../src/render'
import { jobSummary } from '../src/render/summary'
import { topologyMermaid } from '../src/render/mermaid'
import { CaseResultSchema } from '../src/result/schema'
import { escapeMarkdown, mermaidLabel, safeUrl } from '../src/text/escape'
import { actionsSafe, terminalSafe } from '../src/text/terminal'
import { parseTopology } from '../src/topology/load'
import { benchEntry } from './fixtures/render/entries'
import { makeResult } from './fixtures/report/samples'

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'untrusted-'))
afterAll(() => fs.rmSync(out, { recursive: true, force: true }))

const HOSTILE_NAME =
  'fast\n\n[click me](https://evil.example)\n# Owned\n<img src=x onerror=alert(1)> @team **bold**'

/** Lines of the Markdown outside fenced code blocks. */
const prose = (md: string): string[] =>
  md
    .split(/^```[\s\S]*?^```$/m)
    .join('\n')
    .split('\n')

describe('Markdown: text cannot add tags, links, formatting or lines', () => {
  test('a case name with newlines, a link, a heading and HTML stays one line of text in the README', async () => {
    const dir = path.join(out, 'readme')
    await renderReport({
      entries: [benchEntry(1, '7', { caseName: HOSTILE_NAME })],
      topologies: {},
      outDir: dir,
      maxEntries: 10
    })
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    const heading = readme.split('\n').find(l => l.startsWith('## Case 7'))!
    expect(heading).toBe(
      '## Case 7: fast \\[click me\\]\\(https\\://evil.example) # Owned &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt; @\u2060team \\*\\*bold\\*\\*'
    )
    expect(readme).not.toMatch(/\]\(https:\/\/evil|<img|^# Owned/m)
  })

  test('the job summary escapes case names the same way', () => {
    const result = makeResult([{ id: '1', metrics: { roundtrip: [[0.1, 0.1]] } }])
    result.cases[0].name = HOSTILE_NAME
    const summary = jobSummary(result)
    expect(summary).toContain(`| 1 ${escapeMarkdown(HOSTILE_NAME)} |`)
    expect(summary).not.toMatch(/\]\(https:\/\/evil|<img|^# Owned/m)
  })

  test('escaping is one function: HTML first neutralised, then Markdown, entities intact', () => {
    expect(escapeMarkdown("a'b<c>`d` [e](f) | g\nh")).toBe(
      'a&#39;b&lt;c&gt;&#96;d&#96; \\[e\\]\\(f) \\| g h'
    )
    // Only what Markdown or GitHub would act on is escaped: versions, hyphens, snake_case and
    // sentences read as written.
    const cases: [string, string][] = [
      ['GNES 0.0.47, non-blocking: num_part 2.', 'GNES 0.0.47, non-blocking: num_part 2.'],
      ['- a list', '\\- a list'],
      ['1. a list', '1\\. a list'],
      ['# heading', '\\# heading'],
      ['---', '\\---'],
      ['see #12', 'see \\#12'],
      [':smile: https://x.io www.x.io', '\\:smile: https\\://x.io www\\.x.io'],
      ['_em_ *b* ~~s~~ $m$ a|b', '\\_em\\_ \\*b\\* \\~\\~s\\~\\~ \\$m\\$ a\\|b'],
      ['\\#12', '\\\\\\#12']
    ]
    for (const [text, escaped] of cases) expect(escapeMarkdown(text)).toBe(escaped)
    expect(safeUrl('javascript:alert(1)')).toBeNull()
    expect(safeUrl('https://x.io/a b"c')).toBe('https://x.io/a%20b%22c')
  })
})

describe('ids are slugs: nothing becomes a path outside its directory', () => {
  test('a case id such as ../../x is rejected by the schemas', () => {
    const entry = { ...benchEntry(1), caseId: '../../x' }
    const parsed = HistoryEntrySchema.safeParse(entry)
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues[0]).toMatchObject({ path: ['caseId'] })
    expect(() =>
      parseTopology(
        "id: '../../x'\nname: n\nservices: [{ name: F, role: frontend }, { name: R, role: router, model: BaseRouter, in: { socket: PULL_CONNECT, peer: F }, out: { socket: PUSH_CONNECT, peer: F } }]",
        'evil.yml'
      )
    ).toThrow(/^evil\.yml: invalid topology:\n {2}at id: id must be a slug/)
    const result = makeResult([{ id: '1', metrics: { roundtrip: [[0.1]] } }])
    expect(CaseResultSchema.safeParse({ ...result.cases[0], id: '../x' }).success).toBe(false)
  })

  test('a history file holding such an id stops the read, naming the file', () => {
    const dir = path.join(out, 'history')
    const entry = benchEntry(1)
    const file = path.join(dir, entryPath(entry))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, serializeEntry({ ...entry, caseId: '../../x' }))
    expect(() => readHistory(dir)).toThrow(/entries\/1\/2020s\/2026\/01\/.*\.json: .*caseId/)
  })

  test('the renderer writes nothing outside its directory even if handed such an id', async () => {
    const dir = path.join(out, 'contained', 'a', 'b')
    const entry = { ...benchEntry(1), caseId: '../../../../x' }
    await expect(
      renderReport({ entries: [entry], topologies: {}, outDir: dir, maxEntries: 5 })
    ).rejects.toThrow(
      /refusing to write charts\/case-\.\.\/\.\.\/\.\.\/\.\.\/x-roundtrip\.vl\.json outside/
    )
    expect(fs.existsSync(path.join(out, 'contained', 'x-roundtrip.vl.json'))).toBe(false)
    expect(fs.existsSync(path.join(out, 'x-roundtrip.vl.json'))).toBe(false)
  })
})

describe('Mermaid: a model string cannot close the fence or the label', () => {
  test('backticks, quotes, newlines and HTML in a model stay inside the label', async () => {
    const t = parseTopology(
      [
        'id: fence',
        'name: fence',
        'services:',
        '  - { name: F, role: frontend }',
        '  - name: R',
        '    role: router',
        '    model: "!BlockRouter {parameters: {sleep_sec: 1, note: \\"x\\n```\\n<script>alert(1)</script>|\\"}}"',
        '    in: { socket: PULL_CONNECT, peer: F }',
        '    out: { socket: PUSH_CONNECT, peer: F }'
      ].join('\n'),
      'fence.yml'
    )
    const mermaid = topologyMermaid(t)
    expect(mermaid).not.toMatch(/`|<script|"x|\n\s*\n/)
    expect(mermaid).toContain('#96;#96;#96; #lt;script#gt;')
    const dir = path.join(out, 'fence')
    await renderReport({
      entries: [benchEntry(1, 'fence')],
      topologies: { fence: t },
      outDir: dir,
      maxEntries: 5
    })
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    // The diagram's block holds the diagram only: its fence closes on the line after it.
    const block = readme.slice(readme.indexOf('```mermaid\n'))
    const body = block.slice(11, block.indexOf('\n```\n'))
    expect(body).toBe(mermaid)
    expect(prose(readme).join('\n')).not.toContain('<script')
    expect(mermaidLabel('a#b')).toBe('a#35;b')
  })
})

describe('terminal and Actions log', () => {
  test('control characters become visible escapes; newlines and tabs stay', () => {
    expect(terminalSafe('a\u001b[2Jb\r\nc\td\u0007\u009b\u202e')).toBe(
      'a\\x1b[2Jb\nc\td\\x07\\x9b\\u202e'
    )
  })

  test('quoted text cannot issue a workflow command', () => {
    expect(actionsSafe('bad file:\n::add-mask::x\n  ::error::y')).toBe(
      'bad file:\n:\u200b:add-mask::x\n  :\u200b:error::y'
    )
  })
})
