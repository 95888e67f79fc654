import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import { parseTopology, resolveTopology } from '../src/topology/load'
import { tmp } from './helpers/tmp'

/*
 * Where thresholds come from: a native topology file, a Compose file's x-latency-bench block and
 * the `thresholds` input, each read as a run reads it, and each bad expression refused there.
 */

const native = (thresholds: string) => `
id: single
name: single service
kind: http
services:
  - name: web
    image: web:1
    port: 8080
load: { service: web }
${thresholds}
`

const compose = (thresholds: string) => `
services:
  web:
    image: web:1
    expose: [8080]
x-latency-bench:
  load: { service: web }
${thresholds}
`

describe('thresholds in a topology file', () => {
  it('a native file carries them, parsed', () => {
    const t = parseTopology(
      native("thresholds:\n  latency: ['p(99)<200ms', 'med<50ms']\n  throughput: ['value>=500']"),
      'single.yml'
    )
    expect(t.thresholds.map(x => [x.metric, x.source, x.bound])).toEqual([
      ['latency', 'p(99)<200ms', 0.2],
      ['latency', 'med<50ms', 0.05],
      ['throughput', 'value>=500', 500]
    ])
  })
  it('none given is none', () => {
    expect(parseTopology(native(''), 'single.yml').thresholds).toEqual([])
  })
  it('a bad expression stops the file, naming the file, the key and the expression', () => {
    expect(() =>
      parseTopology(native("thresholds:\n  latency: ['p(101)<1ms']"), 'single.yml')
    ).toThrow(/single\.yml[\s\S]*thresholds\.latency\.0[\s\S]*'p\(101\)<1ms': the percentile/)
  })
  it('a Compose file carries them in x-latency-bench, read from disk as a run reads it', () => {
    const dir = tmp()
    const file = path.join(dir, 'compose.yaml')
    fs.writeFileSync(
      file,
      compose("  thresholds: { latency: ['p(99)<1ms'], errors: 'rate<0.001' }")
    )
    const { topology } = resolveTopology(file)
    expect(topology.thresholds.map(x => `${x.metric} ${x.source}`)).toEqual([
      'latency p(99)<1ms',
      'errors rate<0.001'
    ])
  })
  it("a bad one in a Compose file is named at x-latency-bench's key", () => {
    expect(() =>
      parseTopology(compose("  thresholds: { latency: ['p99<1ms'] }"), 'compose.yaml')
    ).toThrow(/x-latency-bench\.thresholds\.latency\.0[\s\S]*unknown aggregation 'p99'/)
  })
})

describe('the thresholds and fail-on-threshold inputs', () => {
  it('default to none and false', () => {
    const inputs = parseInputs({})
    expect(inputs.thresholds).toEqual([])
    expect(inputs['fail-on-threshold']).toBe(false)
  })
  it('take a YAML or JSON mapping', () => {
    const yaml = parseInputs({ thresholds: "{latency: ['p(99)<200ms'], throughput: value>=500}" })
    expect(yaml.thresholds.map(t => t.source)).toEqual(['p(99)<200ms', 'value>=500'])
    const json = parseInputs({
      thresholds: '{"errors": ["rate<0.01"]}',
      'fail-on-threshold': 'true'
    })
    expect(json.thresholds[0]).toMatchObject({ metric: 'errors', bound: 0.01 })
    expect(json['fail-on-threshold']).toBe(true)
  })
  it('refuse a bad expression, naming the input, the key and the expression', () => {
    expect(() => parseInputs({ thresholds: "{latency: ['med<5parsecs']}" })).toThrow(
      /input 'thresholds\.latency\.0' = .*'med<5parsecs': unknown unit 'parsecs'/
    )
  })
  it('refuse what is no mapping', () => {
    for (const text of ['p(99)<1ms', '[1, 2]', '{latency: [p(99)<1ms'])
      expect(() => parseInputs({ thresholds: text })).toThrow(
        /thresholds must be a YAML or JSON mapping/
      )
    expect(() => parseInputs({ 'fail-on-threshold': 'yes' })).toThrow(
      /fail-on-threshold must be true or false/
    )
  })
})
