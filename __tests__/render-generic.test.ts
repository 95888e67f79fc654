/**
 * Reports of generic (kind: http) cases beside GNES ones, from real results: a chain of 5 relays
 * (local engine; minimal and burst) and a tree behind Caddy (Docker; minimal and a sweep). Their
 * sections, charts, dashboard data, job summary and pull-request comment carry their topology's
 * name and metrics and nothing of GNES; hop names from a history are escaped wherever they land.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { entriesFromResult, importLegacy } from '../src/history'
import type { HistoryEntry } from '../src/history/schema'
import { jobSummary, renderReport, topologyMermaid } from '../src/render'
import { comparePaired, compareResult } from '../src/judge'
import { renderComparisonMarkdown, renderPairedMarkdown } from '../src/report'
import { ResultSchema, type Result } from '../src/result/schema'
import { resolveTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'

const FIXTURES = path.join(__dirname, 'fixtures')
const EXAMPLES = path.join(__dirname, '..', 'topologies', 'examples', 'http')

/** A real result, as if measured at commit `sha`. */
function result(name: string, sha: string): Result {
  const raw = JSON.parse(
    fs.readFileSync(path.join(FIXTURES, 'generic', `${name}-result.json`), 'utf8')
  )
  raw.meta.git = {
    ...raw.meta.git,
    sha,
    ref: 'refs/heads/main',
    event: 'push',
    repository: 'acme/mesh'
  }
  return ResultSchema.parse(raw)
}

const http = (file: string): HttpTopology => {
  const t = resolveTopology(path.join(EXAMPLES, file)).topology
  if (t.kind !== 'http') throw new Error(`${file} is not a generic topology`)
  return t
}
const chain = http('chain5.yml')
const tree = http('tree.yml')
const topologies = {
  ...Object.fromEntries(['1', '2', '3', '4'].map(id => [id, resolveTopology(id).topology])),
  chain5: chain,
  'tree-2': tree
}
const generic = [
  ...entriesFromResult(result('chain5', 'a'.repeat(40))),
  ...entriesFromResult(result('tree', 'b'.repeat(40)))
]
const GNES_WORDS = /GNES|Frontend|Router|legacy|Legacy|data rate|Data rate|MB\/s|docs/

/** The README's part about one case, up to the next case. */
const section = (readme: string, id: string): string =>
  readme.split(/^## /m).find(s => s.startsWith(`Case ${id}:`)) ?? ''

describe('reports of generic cases beside GNES ones', () => {
  let out: string
  let readme: string
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'render-generic-'))
    const entries = [...importLegacy(path.join(FIXTURES, 'legacy')), ...generic]
    await renderReport({ entries, topologies, outDir: out, maxEntries: 50 })
    readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8')
  })
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }))

  test('entries of a generic case carry no GNES version; their version is the commit', () => {
    expect(generic.map(e => e.gnes)).toEqual([null, null, null, null])
    expect(generic.map(e => e.caseId)).toEqual(['chain5', 'chain5', 'tree-2', 'tree-2'])
  })

  test('the chain’s README section: its name, its metrics and hops in ms, its diagram, nothing of GNES', () => {
    const s = section(readme, 'chain5')
    expect(s).toContain('chain of 5 relays')
    expect(s).toContain('relay1 → relay2 → relay3 → relay4 → relay5')
    expect(s).toMatch(
      /`latency` \(ms\) \| `latency:sent` \(ms\) \| `c:lag` \(ms\) \| `hop:relay1` \(ms\)/
    )
    expect(s).toMatch(/`roundtrip` \(ms\) \| `hop:relay1` \(ms\)/)
    expect(s).toContain('| aaaaaaa |')
    // The relays have no dependsOn: each edge comes from the address the relay calls.
    expect(s.match(/^ {2}s\d --> s\d$/gm)).toEqual([
      '  s1 --> s2',
      '  s2 --> s3',
      '  s3 --> s4',
      '  s4 --> s5'
    ])
    expect(s).not.toMatch(GNES_WORDS)
    // The GNES cases keep their legacy columns.
    expect(section(readme, '1')).toContain('Legacy "MB/s"')
  })

  test('the tree’s section shows its sweep and its limits, nothing of GNES', () => {
    const s = section(readme, 'tree-2')
    expect(s).toContain('Max throughput (req/s)')
    expect(s).toContain('× 2 replicas')
    expect(s).toContain('0.1 CPU · 64 MiB')
    expect(s).not.toMatch(GNES_WORDS)
  })

  test('beside GNES cases, the set-up explains both and the burst row both loads', () => {
    expect(readme).toMatch(/^# GNES network latency benchmark\n/)
    expect(readme).toContain('Each GNES case starts one GNES Frontend')
    expect(readme).toContain('Each HTTP case starts its topology')
    expect(readme).toMatch(/\| `burst` \| The legacy standard load.* HTTP cases: every request/)
  })

  test('charts: latency, hops and the roundtrip for the chain, no data-rate chart', () => {
    const charts = fs
      .readdirSync(path.join(out, 'charts'))
      .filter(f => f.startsWith('case-chain5') && f.endsWith('.svg'))
    expect(charts.sort()).toEqual(
      [
        'case-chain5-hops.svg',
        'case-chain5-minimal-20-hops.svg',
        'case-chain5-minimal-20-latency.svg',
        'case-chain5-roundtrip.svg'
      ].sort()
    )
    const hops = fs.readFileSync(
      path.join(out, 'charts', 'case-chain5-minimal-20-hops.svg'),
      'utf8'
    )
    for (const h of ['relay1', 'relay5']) expect(hops).toContain(`hop:${h}`)
    // The bar adds up to the whole request: what no relay reported is a segment of its own.
    expect(hops).toContain('rest (unreported)')
    expect(hops).not.toMatch(/GNES/)
  })

  test('job summary and pull-request comment say “Latency”, name the case, and nothing of GNES', () => {
    const head = result('chain5', 'c'.repeat(40))
    const summary = jobSummary(head)
    expect(summary).toMatch(/^## Latency benchmark/)
    expect(summary).toContain('chain5 chain of 5 relays')
    expect(summary).not.toMatch(/GNES|docs ×|Legacy/)
    const comparison = compareResult(head, generic, {
      threshold: 0.1,
      baseRef: 'main',
      mergeBaseSha: 'a'.repeat(40)
    })
    const comment = renderComparisonMarkdown(comparison)
    expect(comment).toMatch(/^### Latency: /)
    expect(comment).toContain('chain5 chain of 5 relays · minimal')
    expect(comment).toContain('`latency`')
    expect(comment).not.toMatch(/GNES|docs ×/)
    expect(comparison.cases.map(c => c.baseline.entry?.commit.sha)).toEqual([
      'a'.repeat(40),
      'a'.repeat(40)
    ])
  })
})

describe('a history of generic cases only', () => {
  test('its README says nothing of GNES anywhere, set-up and metrics included', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'render-generic-only-'))
    await renderReport({ entries: generic, topologies, outDir: out, maxEntries: 50 })
    const readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8')
    expect(readme).toMatch(/^# Latency benchmark\n/)
    expect(readme).toContain('an HTTP load driver')
    expect(readme).toContain('| `burst` | Every request of a run sent at once')
    expect(readme).not.toMatch(GNES_WORDS)
    expect(readme).not.toMatch(/gnes-version|ZeroMQ|StreamCall|documents/)
    fs.rmSync(out, { recursive: true, force: true })
  })
})

describe('hop names from a history are text, wherever they land', () => {
  const HOSTILE = 'hop:<img src=x onerror=alert(1)>|`x`](javascript:alert(1))'
  const hostile = (e: HistoryEntry): HistoryEntry => {
    const rename = (m: string) => (m === 'hop:relay1' ? HOSTILE : m)
    const renameKeys = <T>(o: Record<string, T>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [rename(k), v]))
    return {
      ...e,
      metrics: e.metrics.map(rename),
      best: renameKeys(e.best),
      samples: e.samples && renameKeys(e.samples),
      runs: e.runs.map(r => ({ ...r, summaries: renameKeys(r.summaries) }))
    }
  }

  test('README, charts and dashboard data', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'render-generic-hostile-'))
    const written = await renderReport({
      entries: generic.map(hostile),
      topologies,
      outDir: out,
      maxEntries: 50
    })
    const readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8')
    expect(readme).not.toContain('<img')
    expect(readme).not.toContain('](javascript:')
    // Vega-Lite specs and dashboard data are JSON (a name there is a string, not markup).
    for (const f of written.filter(w => /\.(svg|html|md)$/.test(w))) {
      const text = fs.readFileSync(path.resolve(out, f), 'utf8')
      expect(text).not.toContain('<img src=x')
    }
    fs.rmSync(out, { recursive: true, force: true })
  })

  test('job summary, pull-request comment and paired comment', () => {
    const rename = (m: string) => (m === 'hop:relay1' ? HOSTILE : m)
    const renameKeys = <T>(o: Record<string, T>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [rename(k), v]))
    const hostileResult = (sha: string): Result => {
      const r = result('chain5', sha)
      return {
        ...r,
        cases: r.cases.map(c => ({
          ...c,
          metrics: c.metrics.map(rename),
          best: renameKeys(c.best),
          runs: c.runs.map(run => ({
            ...run,
            samples: renameKeys(run.samples),
            summaries: renameKeys(run.summaries)
          }))
        }))
      }
    }
    const head = hostileResult('c'.repeat(40))
    const base = hostileResult('a'.repeat(40))
    const comparison = compareResult(head, entriesFromResult(base), {
      threshold: 0.1,
      baseRef: 'main',
      mergeBaseSha: 'a'.repeat(40)
    })
    // The hostile hop was compared (its row is folded), so the test reaches its escaping.
    expect(comparison.cases[0].metrics.map(m => m.metric)).toContain(HOSTILE)
    const paired = comparePaired(
      {
        base,
        head,
        order: [0, 1, 2].flatMap(pair => [
          { side: 'base' as const, pair },
          { side: 'head' as const, pair }
        ]),
        interleave: 'blocks' as const
      },
      { threshold: 0.1 }
    )
    expect(paired.cases[0].metrics.map(m => m.metric)).toContain(HOSTILE)
    // The paired comment labels rows `case · profile` by the topology's name, as the other one.
    expect(renderPairedMarkdown(paired)).toContain('| chain5 chain of 5 relays · minimal')
    for (const md of [
      jobSummary(head),
      renderComparisonMarkdown(comparison),
      renderPairedMarkdown(paired)
    ]) {
      expect(md).toContain('hop:&lt;img src=x onerror=alert(1)&gt;')
      expect(md).not.toContain('<img')
      expect(md).not.toContain('](javascript:')
      expect(md).not.toMatch(/GNES|docs ×|Legacy/)
    }
  })

  test('the Mermaid diagram of a generic topology escapes service text', () => {
    const t = { ...chain, load: { ...chain.load, path: '/"]) --> x(["<b>' } }
    const m = topologyMermaid(t)
    expect(m).not.toContain('<b>')
    expect(m.split('\n')[1]).toBe('  load(["load<br/>POST /#quot;]) --#gt; x([#quot;#lt;b#gt;"])')
  })
})
