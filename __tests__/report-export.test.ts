import Ajv from 'ajv'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { exportCommand } from '../src/commands/export'
import { entriesFromResult } from '../src/history/from-result'
import { writeEntryFiles } from '../src/history/dir-store'
import { latencyHistogram, percentileDistribution } from '../src/metrics/histogram'
import { CSV_HEADER, toBenchmarkAction, toBmf, toCsv, toHgrm } from '../src/report/export'
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

/**
 * The two formats as their tools define them, transcribed: Bencher's published BMF schema
 * (bencher.dev, "Bencher Metric Format": benchmark name → measure → { value, lower_value?,
 * upper_value? }, numbers), and github-action-benchmark's `BenchmarkResult` (src/extract.ts: name,
 * value, unit, optional range and extra; `customSmallerIsBetter` parses an array of them).
 */
const BMF_SCHEMA = {
  type: 'object',
  minProperties: 1,
  additionalProperties: {
    type: 'object',
    minProperties: 1,
    additionalProperties: {
      type: 'object',
      required: ['value'],
      properties: {
        value: { type: 'number' },
        lower_value: { type: 'number' },
        upper_value: { type: 'number' }
      },
      additionalProperties: false
    }
  }
}
const BENCHMARK_ACTION_SCHEMA = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['name', 'value', 'unit'],
    properties: {
      name: { type: 'string', minLength: 1 },
      value: { type: 'number' },
      unit: { type: 'string', minLength: 1 },
      range: { type: 'string' },
      extra: { type: 'string' }
    },
    additionalProperties: false
  }
}

test('what the export command writes is valid to both tools, as their readers parse it (JSON text)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-schemas-'))
  const file = path.join(dir, 'result.json')
  fs.writeFileSync(file, JSON.stringify(result))
  const ajv = new Ajv({ allErrors: true, strict: true })
  for (const [format, schema] of [
    ['bmf', BMF_SCHEMA],
    ['benchmark-action', BENCHMARK_ACTION_SCHEMA]
  ] as const) {
    const out = path.join(dir, `${format}.json`)
    expect(await exportCommand.run({ format, result: file, out }, [])).toBe(0)
    const validate = ajv.compile(schema)
    const ok = validate(JSON.parse(fs.readFileSync(out, 'utf8')))
    expect(validate.errors ?? []).toEqual([])
    expect(ok).toBe(true)
  }
  // Bencher's measures are its built-in slugs: latency (ns) and throughput (per second).
  const measures = new Set(Object.values(toBmf(result)).flatMap(m => Object.keys(m)))
  expect([...measures].every(m => m === 'latency' || m === 'throughput')).toBe(true)
  fs.rmSync(dir, { recursive: true, force: true })
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
      "--format must be one of bmf, benchmark-action, csv, hgrm (not 'xml')"
    )
    await expect(exportCommand.run({ format: 'csv' }, [])).rejects.toThrow(
      'export --format csv needs --history-dir DIR'
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test("HdrHistogram's percentile text: per case and profile, in ms, the same from samples and from a stored histogram", async () => {
  const files = toHgrm(result, null)
  expect(files.map(f => f.name)).toEqual([
    'case-1-burst-roundtrip.hgrm',
    'case-3-burst-roundtrip.hgrm'
  ])
  const samples = result.cases[0].runs.filter(r => !r.warmup).flatMap(r => r.samples.roundtrip)
  const lines = files[0].text.split('\n')
  // The layout HistogramLogProcessor writes and the HdrHistogram plotter reads.
  expect(lines[0].trim().split(/\s+/)).toEqual([
    'Value',
    'Percentile',
    'TotalCount',
    '1/(1-Percentile)'
  ])
  const rows = lines
    .slice(2)
    .filter(l => /^\s*\d/.test(l))
    .map(l => l.trim().split(/\s+/).map(Number))
  expect(rows.at(-1)![2]).toBe(samples.length)
  const median = [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)]
  const atHalf = rows.find(r => r[1] >= 0.5)!
  expect(atHalf[0]).toBeCloseTo(median * 1e3, 0)
  expect(files[0].text).toMatch(/#\[Mean\s+=\s+[\d.]+, StdDeviation/)
  expect(files[0].text).toMatch(/#\[Max\s+=\s+[\d.]+, Total count\s+=\s+\d+\]/)
  // A sweep step keeps only its encoded histogram: the text reads the same from it (but for the
  // exact maximum, which the encoding rounds to its bucket).
  const exceptMax = (text: string) => text.replace(/#\[Max.*\n/, '')
  expect(exceptMax(percentileDistribution(latencyHistogram(samples).encoded))).toBe(
    exceptMax(percentileDistribution(samples))
  )
  expect(toHgrm(result, 'no-such-metric')).toEqual([])

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-hgrm-'))
  try {
    const file = path.join(dir, 'result.json')
    fs.writeFileSync(file, JSON.stringify(result))
    const out = path.join(dir, 'hgrm')
    expect(await exportCommand.run({ format: 'hgrm', result: file, out }, [])).toBe(0)
    expect(fs.readdirSync(out).sort()).toEqual(files.map(f => f.name))
    expect(fs.readFileSync(path.join(out, files[1].name), 'utf8')).toBe(files[1].text)
    await expect(
      exportCommand.run({ format: 'hgrm', result: file, metric: 'nope' }, [])
    ).rejects.toThrow('the result holds no samples of nope')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
