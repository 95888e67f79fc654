import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { importLegacy, LEGACY_METRICS } from '../src/history'
import { GENERATED_MARKER, renderReport, reportSite } from '../src/render'
import { writeSite } from '../src/site/site'
import { newestFirst } from '../src/render/format'
import { escapeMarkdown } from '../src/text/escape'
import { topologyMermaid } from '../src/render/mermaid'
import { markdownTable } from '../src/render/table'
import { parseTopology, resolveTopology } from '../src/topology/load'
import { benchEntry, pacedEntry } from './fixtures/render/entries'

const LEGACY = path.join(__dirname, 'fixtures/legacy')
const CASES = ['1', '2', '3', '4']
const topologies = Object.fromEntries(CASES.map(id => [id, resolveTopology(id).topology]))

let out: string
beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'render-readme-'))
})
afterAll(() => fs.rmSync(out, { recursive: true, force: true }))

/** The Markdown table that follows `## Case <id>` in the README, as cell arrays. */
function caseTable(readme: string, id: string): string[][] {
  const section = readme.split(/^## /m).find(s => s.startsWith(`Case ${id}:`))!
  return section
    .split('\n')
    .filter(l => l.startsWith('| '))
    .map(l => l.slice(2, -2).split(' | '))
}

describe('README from the legacy import', () => {
  let readme: string
  beforeAll(async () => {
    await renderReport({ entries: importLegacy(LEGACY), topologies, outDir: out, maxEntries: 100 })
    readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8')
  })

  test.each(CASES)('case %s: rows and values match the source lines, newest build first', id => {
    const lines = fs
      .readFileSync(path.join(LEGACY, `history${id}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l) as Record<string, number | string>)
      .sort(
        (a, b) =>
          Date.parse(b.timestamp_build as string) - Date.parse(a.timestamp_build as string) ||
          (b.timestamp_eval as number) - (a.timestamp_eval as number)
      )
    const [head, , ...rows] = caseTable(readme, id)
    expect(rows).toHaveLength(46)
    const col = (name: string) => head.indexOf(name)
    rows.forEach((row, i) => {
      const src = lines[i]
      expect(row[col('Build')]).toBe(
        (src.timestamp_build as string).replace('T', ' ').replace('Z', ' UTC')
      )
      expect(row[col('Commit')]).toBe(
        `[\`${src.version_vcs}\`](https://github.com/gnes-ai/gnes/commit/${src.version_vcs})`
      )
      // Versions come from history files: Markdown-escaped (`latest\-alpine` shows as latest-alpine).
      expect(row[col('Version')]).toBe(escapeMarkdown(src.version_tag as string))
      // The legacy seconds, in the one unit of every table: milliseconds.
      for (const m of LEGACY_METRICS) {
        const ms = (src[m] as number) * 1000
        expect(row[col(`\`${m}\` (ms)`)]).toBe(ms.toFixed(ms < 10 ? 2 : 1))
      }
      expect(row[col('Data rate (MB/s)')]).toBe('–')
      expect(row[col('Legacy "MB/s" (docs ÷ roundtrip)')]).toBe(String(src['MB/s']))
    })
  })

  test('has the old page structure after the recent changes: set-up, how to run, metrics, then a section per case', () => {
    const headings = readme.match(/^## .*/gm)
    expect(headings).toEqual([
      '## Recent changes',
      '## Set-up',
      '## How to run it',
      '## Metrics',
      '## Case 1: non-blocking',
      '## Case 2: blocking',
      '## Case 3: parallel non-blocking',
      '## Case 4: parallel blocking'
    ])
    for (const m of ['roundtrip', 'f:send', 'f:recv', 'f->r1:send', 'r1->r2:send', 'r2->f:send']) {
      expect(readme).toContain(`| \`${m}\` | `)
    }
    expect(readme).toMatch(/\| Legacy "MB\/s" \| .*Not a data rate/)
    for (const id of CASES) {
      // Imported entries have no real data rate: the legacy figure's chart, no rate chart.
      expect(readme).not.toContain(`(charts/case-${id}-rate.svg)`)
      for (const kind of ['roundtrip', 'legacy', 'hops']) {
        expect(readme).toContain(`(charts/case-${id}-${kind}.svg)`)
        expect(fs.existsSync(path.join(out, `charts/case-${id}-${kind}.svg`))).toBe(true)
      }
    }
    expect(readme.match(/```mermaid/g)).toHaveLength(4)
  })

  test("the profile and metric tables are the project's Markdown: code spans stay code, no HTML entity", () => {
    const table = (header: string) => readme.slice(readme.indexOf(header)).split('\n\n')[0]
    const profiles = table('| Profile | What it measures |')
    const metrics = table('| Metric | Meaning |')
    expect(profiles).toContain(
      '| `paced` | The same measurement at a rate you choose (input `rate`, requests/s). |'
    )
    expect(profiles).toMatch(/\| `minimal` \| Latency at minimal load: .* case’s minimal rate/)
    for (const text of [profiles, metrics]) expect(text).not.toMatch(/&#x60;|&#x27;|&#x3D;|&quot;/)
    expect(metrics.split('\n').length).toBeGreaterThan(8)
  })

  test('maxEntries keeps the newest rows and says how many there are', async () => {
    const dir = path.join(out, 'max')
    await renderReport({ entries: importLegacy(LEGACY), topologies, outDir: dir, maxEntries: 5 })
    const text = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    expect(caseTable(text, '1')).toHaveLength(2 + 5)
    expect(caseTable(text, '1')[2]).toEqual(caseTable(readme, '1')[2])
    expect(text).toContain('Showing the newest 5 of 46 entries')
  })
})

describe('untrusted history text', () => {
  test('Markdown and HTML in refs, versions and metric names cannot escape their cell', () => {
    const evil = benchEntry(1, '1', {
      gnes: {
        version: '0.0.47',
        tag: '<img src=x onerror=alert(1)>|[x](javascript:1)',
        vcs: null,
        buildDate: null
      },
      commit: {
        sha: 'abc1234def',
        ref: 'x',
        event: 'push',
        repository: null,
        message: '<script>alert(1)</script>',
        url: 'javascript:alert(1)'
      }
    })
    const table = markdownTable([evil], ['roundtrip', 'a|b`'])
    const row = table.split('\n')[2]
    expect(row).not.toMatch(/<img|<script|\]\(javascript:/)
    expect(row).toContain('&lt;img src=x onerror=alert(1)&gt;\\|\\[x\\]\\(javascript:1)')
    // The unsafe URL is dropped: the sha stays, unlinked.
    expect(row).toContain('| `abc1234` |')
    expect(row.split(/(?<!\\)\|/)).toHaveLength(2 + 3 + 2 + 2)
    expect(table.split('\n')[0]).toContain('a\\|b&#96; (ms)')
    expect(escapeMarkdown('line\nbreak')).toBe('line break')
  })

  test('a user template sees values HTML-escaped', async () => {
    const dir = path.join(out, 'user')
    const template = path.join(out, 'user.md')
    fs.writeFileSync(
      template,
      '{{#each cases}}{{name}}|{{#each series}}{{total}}{{/each}}\n{{/each}}'
    )
    const entry = benchEntry(1, '9', { caseName: '<b>x</b>' })
    await renderReport({ entries: [entry], topologies: {}, outDir: dir, template, maxEntries: 10 })
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe(
      `&lt;b&gt;x&lt;/b&gt;|1\n\n${GENERATED_MARKER}\n`
    )
  })
})

describe('rows and commit links', () => {
  test('newest build first; evaluation time stands in where the build time is unknown', () => {
    const a = benchEntry(1)
    const b = benchEntry(2)
    const built = benchEntry(0, '1', {
      gnes: { version: '0.0.47', tag: '0.0.47', vcs: 'f00ba47', buildDate: '2027-01-01T00:00:00Z' }
    })
    expect(newestFirst([a, built, b]).map(e => e.id)).toEqual([built.id, b.id, a.id])
  })

  test('the commit links to the recorded repository, else to --repository-url', () => {
    const e = benchEntry(3)
    expect(markdownTable([e], ['roundtrip'])).toContain(
      `[\`${e.commit.sha!.slice(0, 7)}\`](https://github.com/acme/gnes-bench/commit/${e.commit.sha})`
    )
    const local = benchEntry(3, '1', { commit: { ...e.commit, repository: null } })
    expect(markdownTable([local], ['roundtrip'], 'https://git.example/o/r/')).toContain(
      `(https://git.example/o/r/commit/${e.commit.sha})`
    )
    expect(markdownTable([local], ['roundtrip']).split('\n')[2]).toMatch(
      /^\| [^|]+ \| 0\.0\.47 \| `0000003` \|/
    )
  })

  test('CPU per request is headed CPU-ms and peak memory MiB, each figure in its own unit', () => {
    const e = pacedEntry(3)
    const usage = { ...e, best: { ...e.best, 'cpu:total': 0.0388, 'mem:Router1': 61.5 } }
    const [head, , row] = markdownTable(
      [usage],
      ['path', 'cpu:total', 'mem:Router1'],
      undefined,
      'minimal'
    )
      .split('\n')
      .map(l => l.slice(2, -2).split(' | '))
    expect(head.slice(3, 6)).toEqual(['`path` (ms)', '`cpu:total` (CPU-ms)', '`mem:Router1` (MiB)'])
    expect(row.slice(3, 6)).toEqual(['1023.0', '38.8', '61.5'])
  })

  test('a paced table adds the headline’s p90 and p99 of the run its median was published from', () => {
    const e = pacedEntry(3)
    const run = (median: number, p90: number, p99: number, warmup = false) => ({
      warmup,
      summaries: {
        latency: { n: 20, mean: median, median, p90, p99, min: median, max: p99, std: 0.001 }
      }
    })
    const best = e.best.latency
    const table = markdownTable(
      [
        {
          ...e,
          runs: [run(best, 9, 9, true), run(best + 0.1, 1.5, 1.9), run(best, 1.2, 1.4)]
        }
      ],
      ['latency', 'path'],
      undefined,
      'minimal'
    ).split('\n')
    expect(table[0]).toMatch(
      /\| `latency` \(ms\) \| `path` \(ms\) \| `latency` p90 \(ms\) \| p99 \(ms\) \|$/
    )
    expect(table[2]).toMatch(/\| 1200\.0 \| 1400\.0 \|$/)
    // An entry that kept no run summaries (imported, legacy) shows none.
    expect(markdownTable([e], ['latency'], undefined, 'minimal').split('\n')[2]).toMatch(
      /\| – \| – \|$/
    )
    // Burst tables are unchanged.
    expect(markdownTable([benchEntry(4)], ['roundtrip']).split('\n')[0]).not.toContain('p90')
  })

  test('timings in ms, two decimals below 10 ms (a sub-ms hop is not 0.000); the data rate one decimal, the legacy figure none', () => {
    const row = markdownTable([benchEntry(4)], ['roundtrip', 'r1:proc']).split('\n')[2]
    expect(row).toMatch(/\| 140\.0 \| 5\.00 \| 94\.0 \| 3571 \|$/)
    const fast = benchEntry(4, '1', { best: { roundtrip: 0.012, 'r1:proc': 0.00041 } })
    expect(markdownTable([fast], ['roundtrip', 'r1:proc']).split('\n')[2]).toMatch(
      /\| 12\.0 \| 0\.41 \| 94\.0 \| 3571 \|$/
    )
  })
})

describe('topology diagrams', () => {
  test('case 4: replicas, blocking routers and the hop metric on each edge', () => {
    const m = topologyMermaid(topologies['4'])
    expect(m).toContain('r1[["Router1 (r1)<br/>BlockRouter sleep 1 s<br/>× 2 replicas"]]')
    expect(m).toContain('class r1 blocking')
    expect(m).toContain('f_in -->|"f-#gt;r1:send"| r1')
    expect(m).toContain('r1 -->|"r1-#gt;r2:send"| r2')
    expect(m).toContain('r2 -->|"r2-#gt;f:send"| f_out')
  })

  test('a custom topology of three routers gets its own diagram', () => {
    const t = parseTopology(
      `id: chain3
name: three hops
services:
  - { name: FE, role: frontend }
  - { name: A, role: router, model: BaseRouter, in: { socket: PULL_CONNECT, peer: FE }, out: { socket: PUSH_BIND } }
  - { name: B, role: router, model: '!BlockRouter {parameters: {sleep_sec: "1<2>"}}', in: { socket: PULL_CONNECT, peer: A }, out: { socket: PUSH_BIND } }
  - { name: C, role: router, model: BaseRouter, in: { socket: PULL_CONNECT, peer: B }, out: { socket: PUSH_CONNECT, peer: FE } }
`,
      'chain3.yml'
    )
    const edges = topologyMermaid(t)
      .split('\n')
      .filter(l => l.includes('-->'))
      .map(l => l.trim())
    expect(edges).toEqual([
      'f_in -->|"f-#gt;r1:send"| r1',
      'r1 -->|"r1-#gt;r2:send"| r2',
      'r2 -->|"r2-#gt;r3:send"| r3',
      'r3 -->|"r3-#gt;f:send"| f_out'
    ])
    expect(topologyMermaid(t)).toContain('B (r2)<br/>BlockRouter sleep 1#lt;2#gt; s"]')
  })
})

describe('how to run it', () => {
  test('shows the cases in the history, a custom one by its file', async () => {
    const dir = path.join(out, 'how-to-run')
    const entries = [benchEntry(1, '2'), benchEntry(2, '4'), benchEntry(3, 'chain3')]
    await renderReport({ entries, topologies, outDir: dir, maxEntries: 5 })
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    expect(readme).toContain('    cases: 2,4,chain3.yml\n')
    expect(readme).toContain('npx gnes-latency-bench run --cases 2,4,chain3.yml --history-dir')
    expect(readme).not.toContain('1,2,3,4')
  })

  test('a swarm run on more than one node shows the node of each service, on one node it does not', () => {
    const two = topologyMermaid(topologies['1'], {
      Frontend: ['vm'],
      Router1: ['vm'],
      Router2: ['worker-<1>']
    })
    expect(two).toContain('f_in(["Frontend<br/>on vm<br/>gRPC in"])')
    expect(two).toContain('r2["Router2 (r2)<br/>BaseRouter<br/>on worker-#lt;1#gt;"]')
    const one = topologyMermaid(topologies['1'], {
      Frontend: ['vm'],
      Router1: ['vm'],
      Router2: ['vm']
    })
    expect(one).toBe(topologyMermaid(topologies['1']))
  })
})

describe("an append's render, from each case's newest entries only", () => {
  test('groups them into series; a count it cannot know is left out, and the dashboard lists every series', async () => {
    const dir = path.join(out, 'static')
    const recent = [1, 2, 3].map(i => benchEntry(i, '1')).concat([pacedEntry(4, '1')])
    const site = await reportSite({
      cases: [{ id: '1', recent, total: 40, months: ['2026-01', '2025-12'] }],
      topologies,
      maxEntries: 2
    })
    writeSite(dir, site)
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    // Minimal load first, then the burst; the case holds 40 entries, how many per series is unknown.
    expect(readme.match(/^### .*$/gm)).toEqual([
      '### minimal load (paced, 0.5 req/s)',
      '### burst (standard load, legacy-comparable)'
    ])
    expect(readme.match(/^Showing the newest .*$/gm)).toEqual([
      'Showing the newest 1 entry; the dashboard has them all.',
      'Showing the newest 2 entries; the dashboard has them all.'
    ])
    const script = fs.readFileSync(path.join(dir, 'data/cases.js'), 'utf8')
    // The case's months as ranges of consecutive months, newest first.
    let listed: { cases: { id: string; months: string[]; total: number }[] } | undefined
    new Function('window', script)({ glbData: { cases: (d: typeof listed) => (listed = d) } })
    expect(listed!.cases.map(c => [c.id, c.months, c.total])).toEqual([
      ['1/minimal@0.5', ['2025-12..2026-01'], 40],
      ['1/burst', ['2025-12..2026-01'], 40]
    ])
  })
})

describe('change points in the report', () => {
  /** 40 burst entries of case 1, the roundtrip 10 % higher from the 30th on, a little noise. */
  const stepped = Array.from({ length: 40 }, (_, i) =>
    benchEntry(i, '1', {
      best: { ...benchEntry(i).best, roundtrip: (i >= 30 ? 0.11 : 0.1) * (1 + ((i * 7) % 5) / 500) }
    })
  )

  test('the README lists the step with its size, interval and commits; its chart marks it', async () => {
    const site = await reportSite({
      cases: [{ id: '1', recent: stepped, total: 40, months: ['2026-01'] }],
      topologies,
      maxEntries: 50
    })
    const readme = site.get('README.md')!.toString()
    const table = readme.slice(readme.indexOf('## Recent changes'), readme.indexOf('## Set-up'))
    const rows = table.split('\n').filter(l => l.startsWith('| 1 '))
    expect(rows).toHaveLength(1)
    // Between the 30th entry's commit (index 29) and the 31st's, linked to the repository.
    const sha = (i: number) => benchEntry(i).commit.sha!
    expect(rows[0]).toContain('🔴 slower +10.0 % [+')
    expect(rows[0]).toContain(
      `[${sha(29).slice(0, 7)}](https://github.com/acme/gnes-bench/commit/${sha(29)})`
    )
    expect(rows[0]).toContain(
      `[${sha(30).slice(0, 7)}](https://github.com/acme/gnes-bench/commit/${sha(30)})`
    )
    const spec = JSON.parse(site.get('charts/case-1-roundtrip.vl.json')!.toString())
    const marked = spec.data.values.filter((r: { step?: string }) => r.step)
    expect(marked).toHaveLength(1)
    expect(marked[0].point).toBe(`31 · ${sha(30).slice(0, 7)}`)
    expect(marked[0].step).toMatch(
      /^roundtrip step \+10\.\d % \[\+\d+\.\d %, \+\d+\.\d %\] between/
    )
    const svg = site.get('charts/case-1-roundtrip.svg')!.toString()
    expect(svg).toMatch(/class="mark-rule role-mark[^"]*"/)
    expect(svg).toMatch(/\+10\.\d %/)
  })

  test('without a step the README says none was found, and no chart has a mark', async () => {
    const flat = stepped.slice(0, 30)
    const site = await reportSite({
      cases: [{ id: '1', recent: flat, total: 30, months: ['2026-01'] }],
      topologies,
      maxEntries: 50
    })
    expect(site.get('README.md')!.toString()).toContain('finds no step in any figure')
    const spec = JSON.parse(site.get('charts/case-1-roundtrip.vl.json')!.toString())
    expect(spec.data.values.filter((r: { step?: string }) => r.step)).toEqual([])
  })
})
