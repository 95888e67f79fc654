import * as fs from 'node:fs'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'
import * as url from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { appendToBranch, entriesFromResult, importLegacy } from '../src/history'
import type { HistoryEntry } from '../src/history/schema'
import { ResultSchema } from '../src/result/schema'
import { renderHook } from '../src/pipeline'
import { renderReport } from '../src/render'
import { dashboardTraits } from '../src/render/dashboard'
import { resolveTopology } from '../src/topology/load'
import { git, initBare, lsTree } from './fixtures/history/git'
import { benchEntry, pacedEntry, sweepEntry, withTail } from './fixtures/render/entries'

/** The dashboard in the browser CI installs (Debian's chromium), served from localhost. */
const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]
const chainResult = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'fixtures/generic/chain5-result.json'), 'utf8')
)
const EVIL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml'
}

/** The newest minimal-load entry also measured CPU per request (seconds) and peak memory (MiB). */
const USAGE = { 'cpu:Router1': 0.0113, 'cpu:total': 0.0388, 'mem:Router1': 61.5 }
const withUsage = (e: HistoryEntry): HistoryEntry => ({
  ...e,
  metrics: [...e.metrics, ...Object.keys(USAGE)],
  best: { ...e.best, ...USAGE }
})

let tmp: string
let server: http.Server
let base: string
let browser: Browser
let page: Page
const consoleErrors: string[] = []
const foreign: string[] = []

function serve(root: string): http.Server {
  return http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname)
    const file = path.join(root, rel.endsWith('/') ? `${rel}index.html` : rel)
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
    fs.createReadStream(file).pipe(res)
  })
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'render-dashboard-'))
  const bench = [1, 2, 3].map(i =>
    benchEntry(i, '1', {
      gnes: {
        version: '0.0.47',
        tag: '0.0.47',
        vcs: `abc000${i}`,
        buildDate: `2026-01-0${i}T00:00:00Z`
      },
      commit: { ...benchEntry(i).commit, message: i === 3 ? EVIL : `change ${i}`, ref: EVIL }
    })
  )
  const entries = [
    ...importLegacy(path.join(__dirname, 'fixtures/legacy')),
    ...bench,
    pacedEntry(1, '1'),
    withUsage(withTail(pacedEntry(2, '1'), 1.2, 1.4)),
    ...[1, 2, 3, 4].map(i => sweepEntry(i, '1')),
    // A generic case from a real run: a chain of 5 HTTP relays.
    ...entriesFromResult(
      ResultSchema.parse({
        ...chainResult,
        meta: { ...chainResult.meta, git: { ...chainResult.meta.git, sha: 'c'.repeat(40) } }
      })
    )
  ]
  const topologies = {
    ...Object.fromEntries(['1', '2', '3', '4'].map(id => [id, resolveTopology(id).topology])),
    chain5: resolveTopology(path.join(__dirname, '../topologies/examples/http/chain5.yml')).topology
  }
  await renderReport({ entries, topologies, outDir: tmp, maxEntries: 20 })
  server = serve(tmp)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  const context = await browser.newContext()
  // Anything not addressed to our server is recorded and refused.
  await context.route('**/*', route => {
    const url = route.request().url()
    if (url.startsWith(base)) return route.continue()
    foreign.push(url)
    return route.abort()
  })
  page = await context.newPage()
  page.on('console', m => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
  page.on('pageerror', e => consoleErrors.push(e.message))
  await page.goto(base)
  // Series are listed case by case, minimal load first.
  await page.waitForSelector('body[data-rendered="1/minimal@0.5/latency"]', { timeout: 60_000 })
})

afterAll(async () => {
  await browser?.close()
  await new Promise(resolve => server?.close(resolve))
  fs.rmSync(tmp, { recursive: true, force: true })
})

const points = () => page.locator('#trend .mark-symbol.role-mark path').count()
const yTitle = () =>
  page
    .locator('#trend .role-axis-title text')
    .allTextContents()
    .then(t => t.join(' / '))

/** Selects a series (`<case>/<profile key>`) and a metric, and waits until both are drawn. */
async function show(caseId: string, metric?: string, key = 'burst'): Promise<void> {
  await page.selectOption('#case', `${caseId}/${key}`)
  if (metric) await page.selectOption('#metric', metric)
  const shown = metric ?? (await page.locator('#metric').inputValue())
  await page.waitForSelector(`body[data-rendered="${caseId}/${key}/${shown}"]`)
}

test('every case renders its charts and its whole table', async () => {
  const counts: Record<string, number> = { '1': 49, '2': 46, '3': 46, '4': 46 }
  for (const id of ['2', '3', '4', '1']) {
    await show(id, 'roundtrip')
    expect(await points()).toBe(counts[id])
    expect(await page.locator('#hops .mark-rect.role-mark path').count()).toBeGreaterThan(0)
    expect(await page.locator('#table tbody tr').count()).toBe(counts[id])
  }
})

test('switching the metric changes the chart', async () => {
  await show('1', 'roundtrip')
  const before = await page.locator('#trend svg').innerHTML()
  expect(await yTitle()).toContain('roundtrip (ms)')
  await show('1', 'r1:proc')
  expect(await yTitle()).toContain('r1:proc (ms)')
  // Only the three bench entries measured a service time.
  expect(await points()).toBe(3)
  await show('1', 'legacyMBps')
  expect(await yTitle()).toContain('MB/s')
  expect(await points()).toBe(49)
  expect(await page.locator('#trend svg').innerHTML()).not.toBe(before)
})

test('CPU per request and peak memory on axes of their own: CPU-ms and MiB, never ms', async () => {
  // The y axis as its ARIA label says it: its title and the range of its scale.
  const yAxis = () =>
    page
      .locator('#trend [aria-roledescription="axis"][aria-label^="Y-axis"]')
      .getAttribute('aria-label')
  await show('1', 'mem:Router1', 'minimal@0.5')
  expect(await points()).toBe(1)
  // MiB as stored, not a thousand times them: the one point on a scale from 0 to about 62.
  expect(await yAxis()).toMatch(
    /^Y-axis titled 'mem:Router1 \(peak MiB\)' for a linear scale with values from 0 to (6\d|70)$/
  )
  await show('1', 'cpu:total', 'minimal@0.5')
  expect(await yAxis()).toMatch(
    /^Y-axis titled 'cpu:total \(CPU-ms per request\)' for a linear scale with values from 0 to (3\d|40)$/
  )
  const head = await page.locator('#table thead th').allTextContents()
  expect(head).toEqual(
    expect.arrayContaining(['cpu:Router1 (CPU-ms)', 'cpu:total (CPU-ms)', 'mem:Router1 (MiB)'])
  )
  const cells = await page.locator('#table tbody tr').first().locator('td').allTextContents()
  const at = (title: string) => cells[head.indexOf(title)]
  expect([at('cpu:Router1 (CPU-ms)'), at('cpu:total (CPU-ms)'), at('mem:Router1 (MiB)')]).toEqual([
    '11.3',
    '38.8',
    '61.5'
  ])
})

test('a commit message holding <script> shows as text and never runs', async () => {
  await show('1', 'roundtrip')
  const cell = page.locator('#table tbody tr').first().locator('td.message')
  expect(await cell.textContent()).toBe(EVIL)
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)
  ).toBeUndefined()
  expect(await page.locator('#table script, #table img').count()).toBe(0)
  // Points are drawn in data order, newest first; its tooltip shows the message as text too.
  await page.locator('#trend .mark-symbol.role-mark path').first().hover()
  const tooltip = page.locator('#vg-tooltip-element')
  await tooltip.waitFor({ state: 'visible' })
  expect(await tooltip.textContent()).toContain(EVIL)
  expect(await tooltip.locator('script, img').count()).toBe(0)
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)
  ).toBeUndefined()
})

test('a minimal-load series is drawn in milliseconds, its hops from the client on', async () => {
  await show('1', 'latency', 'minimal@0.5')
  expect(await points()).toBe(2)
  expect(await yTitle()).toContain('latency (ms)')
  expect(await page.locator('#hops .role-axis-title text').allTextContents()).toContain(
    'median ms per request, stacked by hop'
  )
  const head = await page.locator('#table thead th').allTextContents()
  expect(head).toContain('latency (ms)')
  expect(head.slice(-2)).toEqual(['latency p90 (ms)', 'latency p99 (ms)'])
  // The tail of the newest entry's published run; the older one kept no run summaries.
  const rows = page.locator('#table tbody tr')
  expect((await rows.nth(0).locator('td').allTextContents()).slice(-2)).toEqual([
    '1200.0',
    '1400.0'
  ])
  expect((await rows.nth(1).locator('td').allTextContents()).slice(-2)).toEqual(['–', '–'])
  // Data rates belong to bursts only.
  expect(head.filter(h => h.includes('MB'))).toEqual([])
})

test('the page draws a series as its traits say, never by its kind', async () => {
  const text = fs.readFileSync(path.join(tmp, 'data', 'cases.js'), 'utf8')
  const data = JSON.parse(text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')))
  const minimal = data.cases.find((c: { id: string }) => c.id === '1/minimal@0.5')
  // The data names no kind: each series carries its profile's traits.
  expect(minimal).not.toHaveProperty('kind')
  expect(minimal.traits).toEqual(dashboardTraits({ kind: 'minimal', rate: 0.5 }, true))
  // The same series with a burst's traits: data rates, no tail, hop bars of means.
  minimal.traits = dashboardTraits({ kind: 'burst' }, true)
  const body = `window.glbData.cases(${JSON.stringify(data).replace(/</g, '\\u003c')});\n`
  const other = await page.context().newPage()
  try {
    await other.route('**/data/cases.js', route =>
      route.fulfill({ contentType: 'text/javascript', body })
    )
    await other.goto(base)
    await other.waitForSelector('body[data-rendered="1/minimal@0.5/latency"]')
    const head = await other.locator('#table thead th').allTextContents()
    expect(head).toEqual(expect.arrayContaining([data.labels.dataRateMBps, data.labels.legacyMBps]))
    expect(head.filter(h => / p9\d /.test(h))).toEqual([])
    expect(await other.locator('#metric option').allTextContents()).toEqual(
      expect.arrayContaining([data.labels.dataRateMBps, data.labels.legacyMBps])
    )
    expect(await other.locator('#hops .role-axis-title text').allTextContents()).toContain(
      'mean ms per request, stacked by hop'
    )
  } finally {
    await other.close()
  }
})

test('a sweep series draws maximum throughput per entry and the throughput–latency curves', async () => {
  await show('1', 'maxThroughput', 'sweep')
  expect(await points()).toBe(4)
  expect(await yTitle()).toContain('requests/s')
  // The newest three entries: one p50 and one p99 line each.
  expect(await page.locator('#sweep .mark-line.role-mark path').count()).toBe(6)
  expect(await page.locator('#sweep .role-axis-title text').allTextContents()).toEqual(
    expect.arrayContaining(['achieved throughput (requests/s)'])
  )
  expect(await page.locator('#table tbody tr').count()).toBe(4)
  // Back to a burst: the sweep chart goes away.
  await show('1', 'roundtrip')
  expect(await page.locator('#sweep svg').count()).toBe(0)
})

test('a generic case: its entries by commit on the x axis, its reported hops stacked, no data rates', async () => {
  await show('chain5', 'latency', 'minimal@20')
  expect(await points()).toBe(1)
  expect(await page.locator('#trend .role-axis-title text').allTextContents()).toContain(
    'entry, oldest → newest (number · commit)'
  )
  expect(await page.locator('#trend .role-axis-label text').allTextContents()).toContain(
    '1 · ccccccc'
  )
  // Five relays and the rest no relay reported.
  expect(await page.locator('#hops .mark-rect.role-mark path').count()).toBe(6)
  expect(await page.locator('#table-note').textContent()).toBe('1 entry.')
  // Its latency described as its driver measures it, not as GNES's.
  expect(await page.locator('#metric-doc').textContent()).toMatch(
    /^latency: From the request’s scheduled send to its answer/
  )
  const head = await page.locator('#table thead th').allTextContents()
  expect(head).toEqual(expect.arrayContaining(['latency (ms)', 'hop:relay1 (ms)']))
  expect(head.filter(h => /MB|GNES/.test(h))).toEqual([])
  await show('chain5', 'hop:relay3', 'minimal@20')
  expect(await yTitle()).toContain('hop:relay3 (ms)')
  await show('chain5', 'roundtrip')
  const options = await page
    .locator('#metric option')
    .evaluateAll(os => os.map(o => [(o as HTMLOptionElement).value, o.textContent ?? '']))
  expect(options.map(([value]) => value)).toEqual([
    'roundtrip',
    'hop:relay1',
    'hop:relay2',
    'hop:relay3',
    'hop:relay4',
    'hop:relay5'
  ])
  expect(options.map(([, label]) => label).filter(l => /MB|legacy|data rate/i.test(l))).toEqual([])
  // Its burst in milliseconds, as the README's table of it: seconds are GNES's legacy unit only.
  expect(await yTitle()).toContain('roundtrip (ms)')
  const burstHead = await page.locator('#table thead th').allTextContents()
  expect(burstHead).toContain('roundtrip (ms)')
  expect(burstHead.filter(h => /MB|legacy|data rate/i.test(h))).toEqual([])
  expect(await page.locator('body').textContent()).not.toContain('GNES version')
  // Later tests read the page as the earlier ones left it.
  await show('1', 'roundtrip')
})

test('each metric is described in words beside its key', async () => {
  await show('1', 'r2:proc', 'minimal@0.5')
  expect(await page.locator('#metric-doc').textContent()).toBe(
    'r2:proc: Service time inside Router2 (R2.end − R2.start); a blocking router adds its sleep here.'
  )
  await show('1', 'legacyMBps')
  expect(await page.locator('#metric-doc').textContent()).toMatch(/Not a data rate/)
  await show('1', 'maxThroughput', 'sweep')
  expect(await page.locator('#metric-doc').textContent()).toMatch(
    /a lower bound when no faster step failed\.$/
  )
  await show('1', 'roundtrip')
})

test('charts take the width of the screen: all of each, titles and legends too, on a phone (390 px), wider on a desktop (1400 px)', async () => {
  const widths: Record<number, number[]> = {}
  for (const width of [390, 1400]) {
    await page.setViewportSize({ width, height: 900 })
    // Drawn afresh at this width.
    await show('1', 'roundtrip')
    await show('1', 'latency', 'minimal@0.5')
    widths[width] = []
    for (const chart of ['#trend', '#hops']) {
      const box = (await page.locator(`${chart} svg`).boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(width)
      widths[width].push(box.width)
    }
    // Titles and legends inside the screen too: a legend wraps, a long label ends in an ellipsis.
    const beyond = await page.evaluate(
      w =>
        Array.from(document.querySelectorAll('#trend svg text, #hops svg text'))
          .filter(t => t.getBoundingClientRect().width > 0 && t.getBoundingClientRect().right > w)
          .map(t => t.textContent),
      width
    )
    expect(beyond).toEqual([])
    // Nothing wider than the screen but the table, which scrolls in its own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width
    )
  }
  widths[390].forEach(w => expect(w).toBeGreaterThan(300))
  widths[1400].forEach(w => expect(w).toBeGreaterThan(900))
  await page.setViewportSize({ width: 1280, height: 720 })
  await show('1', 'roundtrip')
})

test('no console errors and no request leaves localhost', () => {
  expect(consoleErrors).toEqual([])
  expect(foreign).toEqual([])
})

/** Selects a series (`<case>/<profile key>`) on `on` and waits until its metric is drawn. */
async function showOn(on: Page, series: string, metric: string): Promise<void> {
  await on.selectOption('#case', series)
  await on.waitForSelector(`body[data-rendered="${series}/${metric}"]`, { timeout: 60_000 })
}

/**
 * Opens a dashboard from disk in a fresh page and shows a series' roundtrip; returns the page and
 * the errors it logged.
 */
async function openFile(dir: string, series: string): Promise<{ page: Page; errors: string[] }> {
  const errors: string[] = []
  const filePage = await browser.newPage()
  filePage.on('console', m => {
    if (m.type() === 'error') errors.push(m.text())
  })
  filePage.on('pageerror', e => errors.push(e.message))
  await filePage.goto(url.pathToFileURL(path.join(dir, 'index.html')).href)
  await filePage.waitForSelector('body[data-rendered]', { timeout: 60_000 })
  await showOn(filePage, series, 'roundtrip')
  return { page: filePage, errors }
}

test('a history of generic cases alone: the page is not titled GNES, its burst has no rates', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-dashboard-generic-'))
  const entries = entriesFromResult(
    ResultSchema.parse({
      ...chainResult,
      meta: { ...chainResult.meta, git: { ...chainResult.meta.git, sha: 'd'.repeat(40) } }
    })
  )
  await renderReport({ entries, topologies: {}, outDir: dir, maxEntries: 20 })
  const { page: filePage, errors } = await openFile(dir, 'chain5/burst')
  try {
    expect(await filePage.title()).toBe('Latency benchmark')
    expect(await filePage.locator('h1').textContent()).toBe('Latency benchmark')
    expect(await filePage.locator('#trend .mark-symbol.role-mark path').count()).toBe(1)
    // Five relays and the rest no relay reported.
    expect(await filePage.locator('#hops .mark-rect.role-mark path').count()).toBe(6)
    const text = (await filePage.locator('body').textContent()) ?? ''
    expect(text).not.toMatch(/GNES|MB\/s|legacy|data rate/i)
    expect(errors).toEqual([])
  } finally {
    await filePage.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('opened from disk (file://) it shows the same data as over HTTP', async () => {
  const { page: filePage, errors } = await openFile(tmp, '1/burst')
  try {
    // Case 1 holds legacy entries from several months: every month's data file was loaded.
    expect(await filePage.locator('#trend .mark-symbol.role-mark path').count()).toBe(49)
    expect(await filePage.locator('#table tbody tr').count()).toBe(49)
    expect(await filePage.locator('#table tbody tr').allTextContents()).toEqual(
      await page.locator('#table tbody tr').allTextContents()
    )
    expect(errors).toEqual([])
  } finally {
    await filePage.close()
  }
})

test('the data appends write, month by month on a branch, is what the page shows', async () => {
  const work = path.join(tmp, 'appends')
  const bare = initBare(path.join(work, 'remote.git'))
  const render = renderHook({ template: null, maxEntries: 5 })
  const batches = [
    // Two series of case 2 share its month files: the burst and a minimal-load entry.
    [1, 2].map(i => benchEntry(i, '2')).concat([pacedEntry(3, '2')]),
    // A month later, and a case the branch did not have yet.
    [800, 801].map(i => benchEntry(i, '2')).concat([benchEntry(802, '3')])
  ]
  for (const entries of batches) {
    await appendToBranch({ repo: bare, branch: 'gh-pages', dir: 'benchmarks', entries, render })
  }
  const site = path.join(work, 'site')
  git(work, 'clone', '-q', '-b', 'gh-pages', bare, site)
  const months = lsTree(bare, 'gh-pages').filter(f => f.startsWith('benchmarks/data/2/'))
  expect(months).toEqual([
    'benchmarks/data/2/2020s/2026/01.js',
    'benchmarks/data/2/2020s/2026/02.js'
  ])
  const { page: filePage, errors } = await openFile(path.join(site, 'benchmarks'), '2/burst')
  try {
    const rows = await filePage.locator('#table tbody tr td.message').allTextContents()
    expect(rows).toEqual(['change 801', 'change 800', 'change 2', 'change 1'])
    expect(await filePage.locator('#trend .mark-symbol.role-mark path').count()).toBe(4)
    await showOn(filePage, '2/minimal@0.5', 'latency')
    expect(await filePage.locator('#table tbody tr').count()).toBe(1)
    await showOn(filePage, '3/burst', 'roundtrip')
    expect(await filePage.locator('#table tbody tr').count()).toBe(1)
    expect(errors).toEqual([])
  } finally {
    await filePage.close()
  }
})

test('a step in the history: listed under recent changes and ruled on the headline trend', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-dashboard-steps-'))
  const entries = Array.from({ length: 40 }, (_, i) =>
    benchEntry(i, '1', {
      best: { ...benchEntry(i).best, roundtrip: (i >= 30 ? 0.11 : 0.1) * (1 + ((i * 7) % 5) / 500) }
    })
  )
  await renderReport({ entries, topologies: {}, outDir: dir, maxEntries: 50 })
  const { page: filePage, errors } = await openFile(dir, '1/burst')
  try {
    const changes = await filePage.locator('#changes li.slower').allTextContents()
    expect(changes).toHaveLength(1)
    expect(changes[0]).toMatch(
      /^Case 1 — burst.*: roundtrip step \+10\.\d % \[.*\] between 000001d and 000001e/
    )
    expect(
      await filePage
        .locator('#trend .mark-rule.role-mark path, #trend .mark-rule.role-mark line')
        .count()
    ).toBe(1)
    // Another metric of the series has no change points of its own: no rule.
    await filePage.selectOption('#metric', 'f:send')
    await filePage.waitForSelector('body[data-rendered="1/burst/f:send"]')
    expect(
      await filePage
        .locator('#trend .mark-rule.role-mark path, #trend .mark-rule.role-mark line')
        .count()
    ).toBe(0)
    expect(errors).toEqual([])
  } finally {
    await filePage.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a link names the series and metric shown, and two picked entries show their difference', async () => {
  const linked = await browser.newPage()
  try {
    await linked.goto(`${base}#2/burst/legacyMBps`)
    await linked.waitForSelector('body[data-rendered="2/burst/legacyMBps"]', { timeout: 60_000 })
    await linked.selectOption('#metric', 'roundtrip')
    await linked.waitForSelector('body[data-rendered="2/burst/roundtrip"]')
    expect(new URL(linked.url()).hash).toBe('#2/burst/roundtrip')
    // A hash naming nothing listed shows the first series, as without one.
    await linked.goto(`${base}#<img src=x>/nothing`)
    await linked.reload()
    await linked.waitForSelector('body[data-rendered="1/minimal@0.5/latency"]', { timeout: 60_000 })

    await linked.goto(`${base}#2/burst/roundtrip`)
    await linked.reload()
    await linked.waitForSelector('body[data-rendered="2/burst/roundtrip"]', { timeout: 60_000 })
    const boxes = linked.locator('#table tbody input[type=checkbox]')
    await boxes.nth(0).check()
    expect(await linked.locator('#diff li').count()).toBe(0)
    await boxes.nth(1).check()
    const lines = await linked.locator('#diff li').allTextContents()
    expect(lines.find(l => l.startsWith('roundtrip'))).toMatch(/→ .* \([+−]\d+\.\d %\)$/)
    // A third pick replaces the first: still two.
    await boxes.nth(2).check()
    expect(
      await boxes.evaluateAll(b => b.filter(x => (x as HTMLInputElement).checked).length)
    ).toBe(2)
  } finally {
    await linked.close()
  }
})

test('a paired series: its changes against the newest base drawn in %, its step ruled, its base as text', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-dashboard-paired-'))
  const base = (i: number) => (i < 5 ? 'GNES 0.0.46' : `GNES 0.0.47 ${EVIL}`)
  const entries = Array.from({ length: 30 }, (_, i) => {
    const change = (i >= 20 ? 0.05 : 0) + ((i * 7) % 5) / 1000
    return {
      ...pacedEntry(i, '2'),
      paired: {
        base: base(i),
        pairs: 6,
        change: { path: { change, ci: [change - 0.01, change + 0.01] as [number, number] } }
      }
    }
  })
  await renderReport({ entries, topologies: {}, outDir: dir, maxEntries: 50 })
  const filePage = await browser.newPage()
  const errors: string[] = []
  filePage.on('pageerror', e => errors.push(e.message))
  try {
    await filePage.goto(url.pathToFileURL(path.join(dir, 'index.html')).href)
    await filePage.waitForSelector('body[data-rendered="2/minimal@0.5/latency"]', {
      timeout: 60_000
    })
    await filePage.selectOption('#metric', 'path vs base')
    await filePage.waitForSelector('body[data-rendered="2/minimal@0.5/path vs base"]')
    // The 25 entries paired against the newest base; the 5 against another are not drawn.
    expect(await filePage.locator('#trend .mark-symbol.role-mark path').count()).toBe(25)
    expect(
      await filePage
        .locator('#trend .mark-rule.role-mark path, #trend .mark-rule.role-mark line')
        .count()
    ).toBe(1)
    const titles = await filePage.locator('#trend text').allTextContents()
    expect(titles).toContain('path vs base (% change)')
    expect(titles.join(' ')).toContain('against GNES 0.0.47 <script>')
    expect(await filePage.locator('#metric-doc').textContent()).toMatch(
      /^path vs base: Change against the base a paired run measured/
    )
    const changes = await filePage.locator('#changes li.slower').allTextContents()
    expect(changes.some(c => /path vs base step \+5\.\d %/.test(c))).toBe(true)
    // The table shows each entry's change against the newest base, – against another; two
    // picked entries differ by points.
    const heads = await filePage.locator('#table th').allTextContents()
    const column = heads.indexOf('path vs base (%)')
    expect(column).toBeGreaterThan(0)
    const cells = await filePage
      .locator(`#table tbody tr td:nth-child(${column + 1})`)
      .allTextContents()
    expect(cells[0]).toBe('+5.3 %')
    expect(cells[10]).toBe('+0.3 %')
    expect(cells.slice(25)).toEqual(['–', '–', '–', '–', '–'])
    const boxes = filePage.locator('#table tbody input[type=checkbox]')
    await boxes.nth(0).check()
    await boxes.nth(10).check()
    expect(await filePage.locator('#diff li').allTextContents()).toContain(
      'path vs base (%): +0.3 % → +5.3 % (+5.0 points)'
    )
    expect(await filePage.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBe(
      undefined
    )
    expect(errors).toEqual([])
  } finally {
    await filePage.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
