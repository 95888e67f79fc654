import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { exportCommand } from '../src/commands/export'
import { entriesFromResult } from '../src/history/from-result'
import { writeEntryFiles } from '../src/history/dir-store'
import { CSV_HEADER, toBenchmarkAction, toBmf, toCsv } from '../src/report/export'
import { makeResult } from './fixtures/history/result'

const result = makeResult({ sha: 'a'.repeat(40) })
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
// The measured runs' roundtrip means (the fixture's runs 1 and 2; run 0 is a warm-up).
const runMeans = result.cases[0].runs.filter(r => !r.warmup).map(r => mean(r.samples.roundtrip))

test('Bencher Metric Format: each figure a benchmark with latency in ns, the runs as its bounds', () => {
  const bmf = toBmf(result)
  expect(Object.keys(bmf)).toEqual([
    'case 1/burst/roundtrip',
    'case 1/burst/f:send',
    'case 3/burst/roundtrip',
    'case 3/burst/f:send'
  ])
  const roundtrip = bmf['case 1/burst/roundtrip'].latency
  expect(roundtrip.value).toBeCloseTo(0.11e9, 0)
  expect(roundtrip.lower_value! / 1e9).toBeCloseTo(Math.min(...runMeans), 9)
  expect(roundtrip.upper_value! / 1e9).toBeCloseTo(Math.max(...runMeans), 9)
  // Bencher's adapter takes numbers only, every measure an object with a value.
  for (const measures of Object.values(bmf)) {
    for (const m of Object.values(measures)) expect(typeof m.value).toBe('number')
  }
})

test("github-action-benchmark's custom JSON: name, unit, numeric value, range and extra as strings", () => {
  const points = toBenchmarkAction(result)
  expect(points).toHaveLength(4)
  expect(points[0]).toEqual({
    name: 'case 1/burst roundtrip',
    unit: 'ms',
    value: 110,
    range: `${Math.round(Math.min(...runMeans) * 1e6) / 1e3} … ${Math.round(Math.max(...runMeans) * 1e6) / 1e3}`,
    extra: expect.stringMatching(/engine, 2 measured runs$/)
  })
  for (const p of points) {
    expect(typeof p.name).toBe('string')
    expect(typeof p.unit).toBe('string')
    expect(typeof p.value).toBe('number')
  }
})

test('CSV of a history: a row per entry and figure, oldest first, untrusted text defused', () => {
  const [entry] = entriesFromResult(result)
  const hostile = {
    ...entry,
    id: `${entry.id}-x`,
    commit: { ...entry.commit, ref: '=HYPERLINK("http://x","y"), "quoted"' }
  }
  const csv = toCsv([hostile])
  const lines = csv.trimEnd().split('\n')
  expect(lines[0]).toBe(CSV_HEADER.join(','))
  expect(lines).toHaveLength(1 + Object.keys(entry.best).length)
  // A leading = would be a formula; quotes are doubled inside a quoted field.
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"",""y""), ""quoted"""`)
})

test('export writes each format, and says what it needs', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'))
  try {
    const file = path.join(dir, 'result.json')
    fs.writeFileSync(file, JSON.stringify(result))
    const bmf = path.join(dir, 'bmf.json')
    expect(await exportCommand.run({ format: 'bmf', result: file, out: bmf }, [])).toBe(0)
    expect(JSON.parse(fs.readFileSync(bmf, 'utf8'))).toEqual(toBmf(result))
    const history = path.join(dir, 'history')
    writeEntryFiles(history, entriesFromResult(result))
    const csv = path.join(dir, 'out.csv')
    expect(await exportCommand.run({ format: 'csv', 'history-dir': history, out: csv }, [])).toBe(0)
    expect(fs.readFileSync(csv, 'utf8').split('\n')[0]).toBe(CSV_HEADER.join(','))
    await expect(exportCommand.run({ format: 'xml', result: file }, [])).rejects.toThrow(
      "--format must be one of bmf, benchmark-action, csv (not 'xml')"
    )
    await expect(exportCommand.run({ format: 'csv' }, [])).rejects.toThrow(
      'export --format csv needs --history-dir DIR'
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
