import * as fs from 'node:fs'
import { resultMeta } from './fixtures/result-meta'
import * as os from 'node:os'
import * as path from 'node:path'
import { renderCommand } from '../src/commands/render'
import { importLegacy } from '../src/history'
import { writeEntryFiles } from '../src/history/dir-store'
import { jobSummary, renderReport } from '../src/render'
import {
  ENTRY_AXIS_TITLE,
  HOP_ENTRIES,
  loadChartTemplates,
  renderSvg,
  seriesCharts,
  SERIES,
  type ChartTemplates
} from '../src/render/charts'
import type { HistoryEntry } from '../src/history/schema'
import { newestFirst } from '../src/render/format'
import { sweepTable } from '../src/render/table'
import { RESULT_SCHEMA, type Result } from '../src/result/schema'
import {
  benchEntry,
  benchHistory,
  pacedEntry,
  sweepEntry,
  withTail
} from './fixtures/render/entries'
import { axisTitles, marks, parseXml, walk } from './fixtures/render/svg'

const LEGACY = path.join(__dirname, 'fixtures/legacy')
const templates = loadChartTemplates()
const caseCharts = (caseId: string, caseName: string, entries: HistoryEntry[], t: ChartTemplates) =>
  seriesCharts({ caseId, caseName, profile: { kind: 'burst' }, entries }, t)

let tmp: string
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'render-charts-'))
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('SVG charts', () => {
  const legacy = newestFirst(importLegacy(LEGACY).filter(e => e.caseId === '2'))
  const charts = caseCharts('2', 'blocking', legacy, templates)
  const svg = async (kind: string) =>
    parseXml(await renderSvg(charts.find(c => c.kind === kind)!.spec))

  test('roundtrip: one point per entry, and the axis titles', async () => {
    const doc = await svg('roundtrip')
    expect(marks(doc, 'symbol')).toHaveLength(legacy.length)
    expect(axisTitles(doc).sort()).toEqual([ENTRY_AXIS_TITLE, 'roundtrip (ms)'].sort())
  })

  test('a single entry is drawn on a zero-based axis, not on a zero-width one', async () => {
    const [only] = caseCharts('1', 'non-blocking', [benchEntry(3)], templates)
    const doc = parseXml(await renderSvg(only.spec))
    const labels = walk(doc)
      .filter(n => n.tag === 'g' && /\brole-axis-label\b/.test(n.attrs.class ?? ''))
      .flatMap(g => g.children.map(c => Number(c.text)))
      .filter(v => !Number.isNaN(v))
    // Ticks from 0 up to near the value (a zero-width scale had one meaningless '0' tick).
    expect(labels).toContain(0)
    expect(new Set(labels).size).toBeGreaterThan(3)
    expect(Math.max(...labels)).toBeGreaterThan((benchEntry(3).best.roundtrip * 1000) / 2)
  })

  test('legacy entries: the legacy figure on its own chart, no data-rate chart (they have none)', async () => {
    const doc = await svg('legacy')
    expect(marks(doc, 'symbol')).toHaveLength(legacy.length)
    expect(axisTitles(doc)).toContain('legacy “MB/s”')
    expect(marks(doc, 'text', 'legend-label').map(n => n.text)).toContain(SERIES.legacy)
    expect(charts.map(c => c.kind)).not.toContain('rate')
  })

  test('hops: one stacked bar per entry of the newest HOP_ENTRIES, a segment per hop', async () => {
    const doc = await svg('hops')
    expect(marks(doc, 'rect')).toHaveLength(Math.min(legacy.length, HOP_ENTRIES) * 3)
    expect(axisTitles(doc)).toContain('mean ms per request, stacked by hop')
  })

  test('entries of one GNES release each take their own column, numbered in recording order', async () => {
    const entries = newestFirst(Array.from({ length: 6 }, (_, i) => benchEntry(i)))
    expect(new Set(entries.map(e => e.gnes?.version)).size).toBe(1)
    const [roundtrip] = caseCharts('1', 'x', entries, templates)
    const doc = parseXml(await renderSvg(roundtrip.spec))
    const labels = walk(doc)
      .filter(n => n.tag === 'g' && /\brole-axis-label\b/.test(n.attrs.class ?? ''))
      .flatMap(g => g.children.map(c => c.text ?? ''))
      .filter(t => / · /.test(t))
    expect(labels.map(l => l.split(' · ')[0])).toEqual(['1', '2', '3', '4', '5', '6'])
    // Coloured by release: one legend entry for the one release.
    expect(marks(doc, 'text', 'legend-label').map(n => n.text)).toContain(
      entries[0].gnes!.tag || entries[0].gnes!.version
    )
  })

  test('bench entries: data rate and legacy series, hops in path order with service times', () => {
    const entries = newestFirst(Array.from({ length: 6 }, (_, i) => benchEntry(i)))
    const [roundtrip, rate, legacyFigure, hops] = caseCharts('1', 'x', entries, templates)
    expect(roundtrip.marks).toBe(6)
    // The data rate and the legacy figure (some 20 times larger) on charts of their own.
    expect([rate.kind, rate.marks]).toEqual(['rate', 6])
    expect([legacyFigure.kind, legacyFigure.marks]).toEqual(['legacy', 6])
    expect(
      (hops.spec as unknown as { encoding: { color: { sort: string[] } } }).encoding.color.sort
    ).toEqual(['f->r1:send', 'r1:proc', 'r1->r2:send', 'r2:proc', 'r2->f:send'])
  })
})

describe('charts of paced and sweep series', () => {
  test('a hop keeps its colour in sibling charts: a burst (from the Frontend) beside a minimal load (from the client)', () => {
    type Scale = { encoding: { color: { scale: { domain: string[]; range: string[] } } } }
    const colours = (spec: unknown): Record<string, string> => {
      const { domain, range } = (spec as Scale).encoding.color.scale
      return Object.fromEntries(domain.map((hop, i) => [hop, range[i]]))
    }
    const hopsOf = (entries: HistoryEntry[]) =>
      seriesCharts(
        { caseId: '1', caseName: 'x', profile: entries[0].profile, entries },
        templates
      ).find(c => c.kind === 'hops')!.spec
    const burst = colours(hopsOf(newestFirst([benchEntry(1), benchEntry(2)])))
    const minimal = colours(hopsOf(newestFirst([pacedEntry(1), pacedEntry(2)])))
    const shared = Object.keys(burst).filter(hop => hop in minimal)
    expect(shared).toEqual(['f->r1:send', 'r1:proc', 'r1->r2:send', 'r2:proc'])
    for (const hop of shared) expect(minimal[hop]).toBe(burst[hop])
    // Within a chart, every hop its own colour.
    for (const c of [burst, minimal]) {
      expect(new Set(Object.values(c)).size).toBe(Object.keys(c).length)
    }
  })

  test('minimal load: latency in ms per entry, hops from the client to the last router', async () => {
    // The newest kept its runs' summaries: its spread is drawn up to its p90.
    const entries = newestFirst([pacedEntry(1), pacedEntry(2), withTail(pacedEntry(3), 1.2, 1.4)])
    const charts = seriesCharts(
      { caseId: '2', caseName: 'blocking', profile: entries[0].profile, entries },
      templates
    )
    expect(charts.map(c => c.name)).toEqual([
      'case-2-minimal-0.5-latency',
      'case-2-minimal-0.5-hops'
    ])
    const latency = parseXml(await renderSvg(charts[0].spec))
    expect(marks(latency, 'symbol')).toHaveLength(3)
    expect(marks(latency, 'rule')).toHaveLength(1)
    const rows = (
      charts[0].spec as unknown as { data: { values: { p90?: number; p99?: number }[] } }
    ).data.values
    expect(rows.filter(r => r.p90 !== undefined)).toEqual([
      expect.objectContaining({ p90: 1200, p99: 1400 })
    ])
    expect(axisTitles(latency)).toContain('latency (ms)')
    const order = (charts[1].spec as unknown as { encoding: { color: { sort: string[] } } })
      .encoding.color.sort
    expect(order).toEqual(['c->f:send', 'f->r1:send', 'r1:proc', 'r1->r2:send', 'r2:proc'])
    expect(axisTitles(parseXml(await renderSvg(charts[1].spec)))).toContain(
      'median ms per request, stacked by hop'
    )
  })

  test('sweep: maximum throughput per entry, and p50/p99 curves of the newest entries', async () => {
    const entries = newestFirst([1, 2, 3, 4].map(i => sweepEntry(i)))
    const charts = seriesCharts(
      { caseId: '1', caseName: 'x', profile: entries[0].profile, entries },
      templates
    )
    expect(charts.map(c => c.name)).toEqual(['case-1-sweep-throughput', 'case-1-sweep-curve'])
    expect(charts[0].marks).toBe(4)
    // Three newest entries × three steps × two percentiles.
    expect(charts[1].marks).toBe(3 * 3 * 2)
    const curve = parseXml(await renderSvg(charts[1].spec))
    expect(axisTitles(curve).sort()).toEqual(
      ['achieved throughput (requests/s)', 'latency from the schedule (ms, log scale)'].sort()
    )
    expect(marks(curve, 'line')).toHaveLength(3 * 2)
  })
})

test('renderReport writes specs next to the SVGs and removes charts of vanished cases', async () => {
  const dir = path.join(tmp, 'stale')
  await renderReport({
    entries: benchHistory(8, ['1', '7']),
    topologies: {},
    outDir: dir,
    maxEntries: 50
  })
  expect(fs.existsSync(path.join(dir, 'charts/case-7-hops.svg'))).toBe(true)
  await renderReport({
    entries: benchHistory(8, ['1']),
    topologies: {},
    outDir: dir,
    maxEntries: 50
  })
  const files = fs.readdirSync(path.join(dir, 'charts')).sort()
  expect(files).toEqual(
    ['hops', 'legacy', 'rate', 'roundtrip']
      .flatMap(k => [`case-1-${k}.svg`, `case-1-${k}.vl.json`])
      .sort()
  )
  const spec = JSON.parse(
    fs.readFileSync(path.join(dir, 'charts/case-1-roundtrip.vl.json'), 'utf8')
  )
  expect(spec.data.values).toHaveLength(8)
})

test('render command: reads a history directory and writes README, charts and dashboard', async () => {
  const history = path.join(tmp, 'history')
  writeEntryFiles(history, importLegacy(LEGACY))
  const out = path.join(tmp, 'site')
  // Month data of the layouts before the decade and the year level goes; a file not ours stays.
  const earlier = ['data/4/2019/09.js', 'data/4/2019-09.js', 'data/4/notes.txt']
  for (const f of earlier) {
    fs.mkdirSync(path.dirname(path.join(out, f)), { recursive: true })
    fs.writeFileSync(path.join(out, f), 'old')
  }
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    const code = await renderCommand.run({ 'history-dir': history, out, 'max-entries': '10' }, [])
    expect(code).toBe(0)
  } finally {
    log.mockRestore()
  }
  for (const f of [
    'README.md',
    'index.html',
    'data/cases.js',
    'data/4/2010s/2019/09.js',
    'charts/case-4-hops.svg'
  ]) {
    expect(fs.existsSync(path.join(out, f))).toBe(true)
  }
  expect(earlier.filter(f => fs.existsSync(path.join(out, f)))).toEqual(['data/4/notes.txt'])
  expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toContain('```mermaid')
  await expect(
    renderCommand.run({ 'history-dir': history, out, 'max-entries': '0' }, [])
  ).rejects.toThrow('--max-entries must be a whole number of at least 1')
  await expect(
    renderCommand.run({ 'history-dir': path.join(tmp, 'nowhere'), out }, [])
  ).rejects.toThrow(`--history-dir ${path.join(tmp, 'nowhere')}: no such directory`)
})

test('a sweep table marks a maximum throughput that is only a lower bound', () => {
  // Entry 1 fails its 20 req/s step (capacity 11); entry 12's capacity (22) passes every step.
  const all = sweepEntry(12)
  const entries = newestFirst([
    sweepEntry(1),
    { ...all, sweep: { ...all.sweep!, maxThroughput: 20 } }
  ])
  const rows = sweepTable(entries).split('\n').slice(2)
  expect(rows[0].split('|').map(c => c.trim())[4]).toBe('≥ 20.00')
  expect(rows[1].split('|').map(c => c.trim())[4]).toBe('10.00')
})

test('jobSummary: one row per case with the published figures, and every run', () => {
  const result: Result = {
    schema: RESULT_SCHEMA,
    id: '00000000-0000-4000-8000-000000000001',
    meta: resultMeta({
      load: { runs: 1 },
      git: {
        sha: 'abcdef1234',
        ref: 'refs/heads/<b>x|y</b>',
        repository: 'o/r',
        runId: '1',
        serverUrl: null,
        message: null
      },
      startedAt: '2026-01-01T00:00:00Z',
      finishedAt: '2026-01-01T00:01:00Z'
    }),
    cases: [
      {
        id: '1',
        kind: 'gnes' as const,
        name: 'non-blocking',
        topologyFile: 'case1.yml',
        services: [],
        metrics: ['roundtrip', 'f->r1:send'],
        profile: { kind: 'burst' },
        headline: 'roundtrip',
        sweep: null,
        runs: [0, 1].map(index => ({
          index,
          rate: null,
          warmup: index === 0,
          startedAt: '2026-01-01T00:00:00Z',
          clientSeconds: 5,
          requests: 50,
          payloadBytes: 500000000,
          dataRateMBps: 100 + index,
          summaries: {
            roundtrip: {
              n: 50,
              mean: 0.2 - index / 10,
              median: 0.1,
              p90: 0.3,
              p99: 0.4,
              min: 0,
              max: 1,
              std: 0
            }
          },
          samples: {}
        })),
        best: { roundtrip: 0.1, 'f->r1:send': 0.0304 },
        dataRateMBps: 101,
        legacyMBps: 5000
      }
    ]
  }
  const md = jobSummary(result)
  expect(md).toContain(
    '| Case | `roundtrip` (ms) | `f->r1:send` (ms) | Data rate (MB/s) | Legacy "MB/s" |'
  )
  expect(md).toContain('| 1 non-blocking | 100.0 | 30.4 | 101.0 | 5000 |')
  expect(md).toContain('| 1 | 0 (warm-up) | 200.0 | 100.0 | 300.0 | 1000.0 |')
  expect(md).toContain('commit `abcdef1` on refs/heads/&lt;b&gt;x\\|y&lt;/b&gt;')
  expect(md).not.toContain('<b>')
})

test('the dashboard ships the installed vega builds (copy them after an upgrade)', () => {
  for (const [pkg, file] of [
    ['vega', 'vega.min.js'],
    ['vega-lite', 'vega-lite.min.js'],
    ['vega-embed', 'vega-embed.min.js']
  ]) {
    const shipped = fs.readFileSync(path.join(__dirname, '../templates/dashboard/vendor', file))
    const installed = fs.readFileSync(path.join(__dirname, '../node_modules', pkg, 'build', file))
    expect({ file, same: shipped.equals(installed) }).toEqual({ file, same: true })
  }
})
