/**
 * The pictures in the docs, from real output: a pull request's comment (the report.md of a real
 * paired run, rendered as GitHub renders Markdown: marked, GitHub's table and details styles), the
 * dashboard at 1400 and 390 px, and one chart of each kind, each drawn by Chromium.
 *
 *   node scripts/run-ts.mjs scripts/screenshots.ts [--result out/result.json] \
 *     [--comment out-paired/report.md] [--out docs/img]
 *
 * Without --result the dashboard and charts are left as they are, without --comment the comment.
 *
 * The report is rendered from the result's entries on top of the imported legacy history
 * (test fixtures), so trends have a past; nothing is fetched from outside localhost. The comment's
 * emoji need a colour emoji font (Debian: fonts-noto-color-emoji).
 */
import * as fs from 'node:fs'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { marked } from 'marked'
import { chromium, type Page } from 'playwright-core'
import { entriesFromResult, importLegacy } from '../src/history'
import { knownTopologies } from '../src/pipeline'
import { renderReport } from '../src/render'
import { ResultSchema } from '../src/result/schema'

const { values } = parseArgs({
  options: {
    result: { type: 'string' },
    comment: { type: 'string' },
    out: { type: 'string', default: path.join('docs', 'img') }
  }
})
if (!values.result && !values.comment) {
  throw new Error(
    'screenshots needs --result FILE (a run of the four cases) or --comment FILE (a report.md)'
  )
}
const out = values.out!
fs.mkdirSync(out, { recursive: true })

/** What GitHub's comment box does to Markdown that matters in a picture: tables, code, details. */
const COMMENT_CSS = `
body { font: 14px/1.5 -apple-system, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif;
  color: #1f2328; margin: 0; padding: 16px; background: #fff; }
.box { border: 1px solid #d1d9e0; border-radius: 6px; padding: 8px 16px; max-width: 880px; }
h3 { font-size: 1.25em; margin: 16px 0 8px; }
code { font: 85% ui-monospace, SFMono-Regular, Menlo, monospace; background: #eff1f3;
  padding: .2em .4em; border-radius: 6px; }
table { border-collapse: collapse; display: block; overflow: auto; margin: 8px 0; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
summary { cursor: pointer; }
`

function serve(root: string): Promise<{ server: http.Server; base: string }> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml'
  }
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname)
    const file = path.join(root, rel.endsWith('/') ? `${rel}index.html` : rel)
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' })
    fs.createReadStream(file).pipe(res)
  })
  return new Promise(resolve =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` })
    )
  )
}

/** The page as a screen shows it (`whole`: all of it, scrolled). */
async function shot(page: Page, name: string, whole: boolean): Promise<void> {
  const file = path.join(out, `${name}.png`)
  await page.screenshot({ path: file, fullPage: whole })
  console.log(`${file}: ${(fs.statSync(file).size / 1024).toFixed(0)} kB`)
}

/** The report of `resultFile` on top of the legacy history, rendered into `site`. */
async function renderSite(resultFile: string, site: string): Promise<void> {
  const result = ResultSchema.parse(JSON.parse(fs.readFileSync(resultFile, 'utf8')))
  const legacy = path.join(__dirname, '..', '__tests__', 'fixtures', 'legacy')
  await renderReport({
    entries: [...importLegacy(legacy), ...entriesFromResult(result)],
    topologies: knownTopologies(),
    outDir: site,
    maxEntries: 50
  })
}

async function commentShot(page: Page, base: string): Promise<void> {
  await page.setViewportSize({ width: 920, height: 600 })
  await page.goto(`${base}comment.html`)
  await shot(page, 'comment', true)
}

async function dashboardShots(page: Page, base: string): Promise<void> {
  for (const width of [1400, 390]) {
    // The charts and the table's first rows: the table goes on for every entry.
    await page.setViewportSize({ width, height: width > 1000 ? 1100 : 1600 })
    // A fresh load at this width: the page fits its legends to the screen it is drawn on.
    await page.goto('about:blank')
    await page.goto(`${base}#1/burst/roundtrip`)
    await page.waitForSelector('body[data-rendered]', { timeout: 60_000 })
    await shot(page, `dashboard-${width}`, false)
  }
}

async function chartShots(page: Page, base: string, site: string): Promise<void> {
  const charts = fs.readdirSync(path.join(site, 'charts')).filter(f => f.endsWith('.svg'))
  // One chart of each kind: the last word of its name (roundtrip, rate, legacy, hops, latency,
  // throughput, curve), case 1's where it has one.
  const kinds = new Map<string, string>()
  for (const f of charts.sort()) {
    const kind = /-([a-z]+)\.svg$/.exec(f)![1]
    if (!kinds.has(kind) || f.startsWith('case-1-')) kinds.set(kind, f)
  }
  for (const [kind, f] of kinds) {
    await page.setViewportSize({ width: 800, height: 400 })
    await page.goto(`${base}charts/${f}`)
    const file = path.join(out, `chart-${kind}.png`)
    await page.locator('svg').screenshot({ path: file })
    console.log(`${file}: ${f}`)
  }
}

async function main(): Promise<void> {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'screenshots-'))
  if (values.result) await renderSite(values.result, site)
  if (values.comment) {
    const html = `<!doctype html><meta charset="utf-8"><style>${COMMENT_CSS}</style><div class="box">${await marked.parse(fs.readFileSync(values.comment, 'utf8'))}</div>`
    fs.writeFileSync(path.join(site, 'comment.html'), html)
  }
  const { server, base } = await serve(site)
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox']
  })
  try {
    const context = await browser.newContext({ deviceScaleFactor: 1 })
    await context.route('**/*', route =>
      route.request().url().startsWith(base) ? route.continue() : route.abort()
    )
    const page = await context.newPage()
    if (values.comment) await commentShot(page, base)
    if (values.result) {
      await dashboardShots(page, base)
      await chartShots(page, base, site)
    }
  } finally {
    await browser.close()
    server.close()
    fs.rmSync(site, { recursive: true, force: true })
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
