/**
 * The static charts as a person sees them: each SVG drawn by Chromium, every x-axis label inside
 * the image and clear of the axis title, also for the widest labels a version tag can make (the
 * SVGs are laid out in Node, where vega only estimates text widths).
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { knownTopologies } from '../src/pipeline'
import { renderReport } from '../src/render'
import { benchEntry } from './fixtures/render/entries'

const CHROMIUM = '/usr/bin/chromium'
const WIDE_TAGS = [
  'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW',
  '0.0.47-mmmmmmmmmmmmmmmmmmmm',
  'v0.0.46',
  'MMMMMMMMMMMM MMMMMMMMMMM'
]

let tmp: string
let browser: Browser
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-labels-'))
  const entries = WIDE_TAGS.map((tag, i) =>
    benchEntry(i, '1', {
      gnes: {
        version: '0.0.47',
        tag,
        vcs: 'abcdef0123456789abcdef0123456789abcdef01',
        buildDate: null
      }
    })
  )
  await renderReport({ entries, topologies: knownTopologies(), outDir: tmp, maxEntries: 50 })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
})
afterAll(async () => {
  await browser.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

interface Box {
  text: string
  left: number
  right: number
  top: number
  bottom: number
}

test.each(['roundtrip', 'rate', 'legacy', 'hops'])(
  'case 1 %s chart: x labels inside the image, above the title',
  async kind => {
    const page = await browser.newPage()
    await page.goto(`file://${path.join(tmp, 'charts', `case-1-${kind}.svg`)}`)
    const { width, height, labels, title } = await page.evaluate(() => {
      const svg = document.querySelector('svg')!
      const box = (el: Element) => {
        const r = el.getBoundingClientRect()
        return {
          text: el.textContent ?? '',
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom
        }
      }
      const axis = Array.from(document.querySelectorAll('.role-axis')).find(a =>
        a.textContent?.includes('entry, oldest')
      )!
      return {
        width: svg.getBoundingClientRect().width,
        height: svg.getBoundingClientRect().height,
        labels: Array.from(axis.querySelectorAll('.role-axis-label text')).map(box),
        title: box(axis.querySelector('.role-axis-title text')!)
      }
    })
    await page.close()
    expect(labels.length).toBe(WIDE_TAGS.length)
    for (const l of labels as Box[]) {
      expect(l.left).toBeGreaterThanOrEqual(0)
      expect(l.right).toBeLessThanOrEqual(width)
      expect(l.bottom).toBeLessThanOrEqual(height)
      // The boxes of rotated text are loose: only a label under the title must end above it.
      if (l.right > title.left && l.left < title.right) {
        expect(l.bottom).toBeLessThanOrEqual(title.top)
      }
    }
    expect(title.bottom).toBeLessThanOrEqual(height)
  }
)
