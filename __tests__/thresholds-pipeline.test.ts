import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import {
  checkThresholds,
  compareWithHistory,
  judgeThresholds,
  ThresholdsBroken
} from '../src/pipeline'
import { resolveTopology } from '../src/topology/load'
import { makeEntry, makeResult } from './fixtures/report/samples'
import { runs } from './helpers/samples'
import { tmp } from './helpers/tmp'

/**
 * The pipeline's steps as a run takes them: a topology file with `p(99)<1ms` read as a run reads
 * it, its result judged against it, the comment showing the figure, and `fail-on-threshold`
 * failing the run with it.
 */
describe('a topology with a threshold its run breaks', () => {
  const dir = tmp()
  const file = path.join(dir, 'single.yml')
  fs.writeFileSync(
    file,
    `id: single
name: single service
kind: http
services: [{ name: web, image: web:1, port: 8080 }]
load: { service: web }
thresholds: { roundtrip: ['p(99)<1ms', 'med<50'] }
`
  )
  const spec = { ...resolveTopology(file) }
  const pairs = [{ head: spec, base: spec }]
  // A burst of about 13 ms per request, in three measured runs after a warm-up.
  const result = makeResult([{ id: 'single', metrics: { roundtrip: runs(0.013) } }])

  it('is broken, shown with its figure in the comment, and fails the run', () => {
    const inputs = parseInputs({ 'fail-on-threshold': 'true' })
    const gates = judgeThresholds(inputs, pairs, result, null)
    expect(gates.head.broken).toBe(true)
    const { markdown } = compareWithHistory(
      result,
      [makeEntry({ id: 'single', metrics: { roundtrip: runs(0.013) } })],
      { threshold: 0.1, baseRef: 'main', mergeBaseSha: null },
      {},
      gates.markdown
    )
    expect(markdown).toContain('❌ 1 of 2 thresholds broken on the head.')
    expect(markdown).toMatch(
      /\| `single` \(burst\) \| `roundtrip` \| `p\(99\)<1ms` \| 13\.\d\d ms ❌ \|/
    )
    expect(markdown).toMatch(/\| `med<50` \| 13\.\d\d ms ✅ \|/)
    expect(() => checkThresholds(inputs, gates)).toThrow(ThresholdsBroken)
    expect(() => checkThresholds(inputs, gates)).toThrow(
      /^1 threshold broken \(fail-on-threshold is on\): case single \(burst\): roundtrip p\(99\)<1ms, 13\.\d\d ms$/
    )
  })
  it('without fail-on-threshold it is shown, not a failure; the input adds its own', () => {
    const inputs = parseInputs({ thresholds: "{roundtrip: ['max<1s']}" })
    const gates = judgeThresholds(inputs, pairs, result, result)
    expect(() => checkThresholds(inputs, gates)).not.toThrow()
    expect(gates.head.cases[0].outcomes.map(o => o.threshold.source)).toEqual([
      'p(99)<1ms',
      'med<50',
      'max<1s'
    ])
    expect(gates.markdown).toContain('| head | base |')
  })
})
