import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { compareCommand } from '../src/commands/compare'
import { entryPath } from '../src/site/layout'
import { serializeEntry } from '../src/history/schema'
import { makeEntry, makeResult } from './fixtures/report/samples'
import { runs } from './helpers/samples'

let dir: string
let out: string[]
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-cli-'))
  const entry = makeEntry({ id: '1', metrics: { roundtrip: runs(0.1) } })
  const file = path.join(dir, 'history', entryPath(entry))
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, serializeEntry(entry))
  const result = makeResult([{ id: '1', metrics: { roundtrip: runs(0.106) } }])
  fs.writeFileSync(path.join(dir, 'result.json'), JSON.stringify(result))
  out = []
  jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
    out.push(String(chunk))
    return true
  })
})
afterEach(() => {
  jest.restoreAllMocks()
  fs.rmSync(dir, { recursive: true, force: true })
})

const run = (flags: Record<string, string | boolean>) =>
  compareCommand.run(
    {
      result: path.join(dir, 'result.json'),
      'history-dir': path.join(dir, 'history'),
      ...flags
    },
    []
  )

describe('gnes-latency-bench compare', () => {
  test('prints the report; the threshold decides whether +6% is a regression', async () => {
    expect(await run({ 'fail-on-regression': true })).toBe(0)
    // The interval (exact here) lies within ±10 %: equivalence shown.
    expect(out.join('')).toContain('⚪ no change')
    out = []
    expect(await run({ 'alert-threshold': '5%', 'fail-on-regression': true })).toBe(1)
    expect(out.join('')).toContain('🔴 regression')
  })

  test('--base-ref narrows the baseline to that branch; --out writes the file', async () => {
    const file = path.join(dir, 'report.md')
    expect(await run({ 'base-ref': 'release', out: file })).toBe(0)
    expect(fs.readFileSync(file, 'utf8')).toContain(
      '**no baseline**: no comparable history entry of case 1 on branch release'
    )
  })

  test('bad input is named', async () => {
    await expect(run({ 'alert-threshold': 'ten' })).rejects.toThrow(/alert-threshold/)
    await expect(run({ result: path.join(dir, 'missing.json') })).rejects.toThrow(
      /--result .*missing\.json: cannot read/
    )
    await expect(compareCommand.run({}, [])).rejects.toThrow(/--result FILE and --history-dir DIR/)
  })
})
