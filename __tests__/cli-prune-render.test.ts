/**
 * prune and render on a plain history directory: dates are parsed strictly and the one used is
 * printed, and render never overwrites a README.md or index.html it did not write.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { pruneCommand, strictDate } from '../src/commands/prune'
import { renderCommand } from '../src/commands/render'
import { readHistory } from '../src/history'
import { writeEntryFiles } from '../src/history/dir-store'
import { GENERATED_MARKER } from '../src/render'
import { benchEntry } from './fixtures/render/entries'

let tmp: string
let history: string
let logged: string[]
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-prune-render-'))
  history = path.join(tmp, 'history')
  // Entries evaluated hourly from 2026-01-01T00:00Z.
  writeEntryFiles(
    history,
    [0, 1, 2, 3].map(i => benchEntry(i))
  )
  logged = []
  jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line))
})
afterEach(() => {
  jest.restoreAllMocks()
  fs.rmSync(tmp, { recursive: true, force: true })
})

test('prune --case of a case the history does not hold says so and deletes nothing', async () => {
  const caseId = readHistory(history)[0].caseId
  await expect(
    pruneCommand.run({ 'history-dir': history, keep: '1', case: `${caseId},nope` }, [])
  ).rejects.toThrow(
    `--case nope: the history holds no entries of that case (its cases: ${caseId}); nothing was deleted`
  )
  expect(readHistory(history)).toHaveLength(4)
})

describe('prune --before', () => {
  test.each([
    '2026-02-30',
    '1',
    '99999',
    '2026-13-01',
    '2026-01-01T24:00:00Z',
    '2026-1-1',
    'soon',
    '2026-01-01T12:00:00+25:00',
    '2026-01-01T12:00:00+01:60'
  ])('rejects %s, naming the flag, and deletes nothing', async before => {
    await expect(pruneCommand.run({ 'history-dir': history, before }, [])).rejects.toThrow(
      `--before '${before}' must be a real date, 2024-01-01 or 2024-01-01T12:00:00Z`
    )
    expect(readHistory(history)).toHaveLength(4)
  })

  test('a date means midnight UTC; a time keeps its zone; the instant used is printed', async () => {
    expect(strictDate('2026-01-01')!.toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(strictDate('2026-01-01T03:30:00+02:00')!.toISOString()).toBe('2026-01-01T01:30:00.000Z')
    expect(
      await pruneCommand.run({ 'history-dir': history, before: '2026-01-01T03:30:00+02:00' }, [])
    ).toBe(0)
    expect(logged[0]).toBe('before: entries evaluated before 2026-01-01T01:30:00.000Z')
    expect(logged.at(-1)).toBe('deleted 2 entries; 2 remain')
    expect(readHistory(history).map(e => e.timestampEval)).toEqual([
      '2026-01-01T02:00:00.000Z',
      '2026-01-01T03:00:00.000Z'
    ])
  })
})

describe('render --out', () => {
  const render = (out: string, force?: boolean) =>
    renderCommand.run({ 'history-dir': history, out, ...(force ? { force } : {}) }, [])

  test("refuses a directory holding the user's own README.md and index.html, unless forced", async () => {
    const out = path.join(tmp, 'site')
    fs.mkdirSync(out)
    fs.writeFileSync(path.join(out, 'README.md'), '# My project\n')
    fs.writeFileSync(path.join(out, 'index.html'), '<h1>home</h1>\n')
    await expect(render(out)).rejects.toThrow(
      `--out ${out}: README.md and index.html were not written by gnes-latency-bench (no marker); choose another --out, or pass --force to overwrite`
    )
    expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toBe('# My project\n')
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('<h1>home</h1>\n')
    expect(fs.existsSync(path.join(out, 'charts'))).toBe(false)

    expect(await render(out, true)).toBe(0)
    const readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8')
    expect(readme.trimEnd().endsWith(GENERATED_MARKER)).toBe(true)
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain(GENERATED_MARKER)
    // What we wrote carries the marker, so rendering again needs no --force.
    expect(await render(out)).toBe(0)
  })

  test('one foreign file is enough to refuse', async () => {
    const out = path.join(tmp, 'one')
    fs.mkdirSync(out)
    fs.writeFileSync(path.join(out, 'index.html'), '<h1>home</h1>\n')
    await expect(render(out)).rejects.toThrow(/index\.html was not written by gnes-latency-bench/)
  })
})
