import { ThresholdsSchema, type Threshold } from '../src/config/thresholds'

/** The mapping's problems as the schema words them, `<path>: <message>`. */
function problems(mapping: unknown): string[] {
  const parsed = ThresholdsSchema.safeParse(mapping)
  if (parsed.success) return []
  return parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`)
}

const parse = (mapping: unknown): Threshold[] => ThresholdsSchema.parse(mapping)

describe('thresholds in k6 syntax: well-formed expressions', () => {
  it.each([
    ['latency', 'p(99)<200ms', { kind: 'p', percentile: 99 }, '<', 0.2],
    ['latency', 'p(99.9) <= 1.5s', { kind: 'p', percentile: 99.9 }, '<=', 1.5],
    ['latency', 'p(100)<1', { kind: 'p', percentile: 100 }, '<', 0.001],
    ['latency', 'med<50', { kind: 'med' }, '<', 0.05],
    ['path', 'avg < 300us', { kind: 'avg' }, '<', 3e-4],
    ['path', 'min>=10µs', { kind: 'min' }, '>=', 1e-5],
    ['path', 'max>1e2ms', { kind: 'max' }, '>', 0.1],
    ['roundtrip', ' avg != .5s ', { kind: 'avg' }, '!=', 0.5],
    ['r2:proc', 'med==2ms', { kind: 'med' }, '==', 0.002],
    ['f->r1:send', 'med===0', { kind: 'med' }, '===', 0],
    ['hop:node', 'p(90)>0.25ms', { kind: 'p', percentile: 90 }, '>', 2.5e-4],
    ['errors', 'rate<0.001', { kind: 'rate' }, '<', 0.001],
    ['errors', 'count<=3', { kind: 'count' }, '<=', 3],
    ['throughput', 'value>=500', { kind: 'value' }, '>=', 500],
    ['cpu:total', 'value<2ms', { kind: 'value' }, '<', 0.002],
    ['cpu:total', 'value<2', { kind: 'value' }, '<', 0.002],
    ['cpu:Router1', 'p(90)<=500us', { kind: 'p', percentile: 90 }, '<=', 5e-4],
    ['cpu:web-api_2', 'max<0.01s', { kind: 'max' }, '<', 0.01],
    ['mem:Router1', 'value<10000MiB', { kind: 'value' }, '<', 10000],
    ['mem:Router1', 'value<512', { kind: 'value' }, '<', 512],
    ['mem:db', 'avg<1.5GiB', { kind: 'avg' }, '<', 1536],
    ['mem:db', 'med<=2048KiB', { kind: 'med' }, '<=', 2],
    ['mem:db', 'min>1048576B', { kind: 'min' }, '>', 1],
    ['mem:db', 'max<100MB', { kind: 'max' }, '<', 1e8 / 2 ** 20],
    ['mem:db', 'max<1GB', { kind: 'max' }, '<', 1e9 / 2 ** 20],
    ['mem:db', 'max<500kB', { kind: 'max' }, '<', 5e5 / 2 ** 20],
    ['mem:db', 'max<500KB', { kind: 'max' }, '<', 5e5 / 2 ** 20]
  ])('%s: %s', (metric, source, aggregation, operator, bound) => {
    const [t] = parse({ [metric]: [source] })
    expect(t).toMatchObject({ metric, source: source.trim(), aggregation, operator })
    expect(t.bound).toBeCloseTo(bound as number, 12)
  })
  it('reads one string as a list of one, and several metrics in order', () => {
    const ts = parse({ latency: 'p(99)<200ms', throughput: ['value>=500', 'value<1e6'] })
    expect(ts.map(t => `${t.metric} ${t.source}`)).toEqual([
      'latency p(99)<200ms',
      'throughput value>=500',
      'throughput value<1e6'
    ])
  })
  it('an empty mapping is no threshold', () => expect(parse({})).toEqual([]))
})

describe('thresholds in k6 syntax: every malformed expression refused, naming key and expression', () => {
  it.each([
    ['unknown aggregation', 'latency', 'p99<200ms', "unknown aggregation 'p99'"],
    ['unknown aggregation word', 'latency', 'mean<200ms', "unknown aggregation 'mean'"],
    ['no aggregation', 'latency', '<200ms', 'names no aggregation'],
    ['percentile 0', 'latency', 'p(0)<1ms', 'p(0) must be a number above 0'],
    ['percentile over 100', 'latency', 'p(101)<1ms', 'p(101) must be'],
    ['percentile not a number', 'latency', 'p(abc)<1ms', 'p(abc) must be'],
    ['percentile empty', 'latency', 'p()<1ms', 'p() must be'],
    ['percentile negative', 'latency', 'p(-5)<1ms', 'p(-5) must be'],
    ['percentile unclosed', 'latency', 'p(99<1ms', 'has no closing )'],
    ['unknown unit', 'latency', 'p(99)<200min', "unknown unit 'min'"],
    ['unknown unit h', 'latency', 'med<1h', "unknown unit 'h'"],
    ['unknown operator =', 'latency', 'med=5ms', "unknown operator '='"],
    ['unknown operator =>', 'latency', 'med=>5ms', "unknown operator '=>'"],
    ['unknown operator <>', 'latency', 'med<>5ms', "unknown operator '<>'"],
    ['unknown operator !==', 'latency', 'med!==5ms', "unknown operator '!=='"],
    ['no operator', 'latency', 'med 5ms', 'no operator'],
    ['empty', 'latency', '', 'the expression is empty'],
    ['blank', 'latency', '   ', 'the expression is empty'],
    ['missing value', 'latency', 'p(99)<', 'no value after the operator'],
    ['not a number', 'latency', 'p(99)<fast', "the value 'fast' is not a number"],
    ['NaN', 'latency', 'p(99)<NaN', "the value 'NaN' is not a number"],
    ['Infinity', 'latency', 'p(99)<Infinity', "the value 'Infinity' is not a number"],
    ['huge', 'latency', 'p(99)<1e13', 'not a finite number within ±1000000000000'],
    ['overflow', 'latency', 'avg<1e999', 'not a finite number'],
    ['negative', 'latency', 'avg<-1ms', 'is negative'],
    ['junk after the value', 'latency', 'med<5ms and more', "'and more' follows the value"],
    ['junk after the number', 'latency', 'med<5.5.5ms', "'.5ms' follows the value"],
    [
      'unit on a rate',
      'errors',
      'rate<0.1ms',
      "errors, a rate, takes a plain number, no unit ('ms')"
    ],
    ['unit on a count', 'errors', 'count<3s', "no unit ('s')"],
    ['percent on a rate', 'errors', 'rate<1%', "no unit ('%')"],
    ['size on a time', 'latency', 'p(99)<5MiB', "the unit 'MiB' is a size; latency takes a time"],
    [
      'size on CPU',
      'cpu:total',
      'value<5MB',
      "the unit 'MB' is a size; cpu:total takes a time (ms, s, us, µs; a plain number is ms)"
    ],
    [
      'time on memory',
      'mem:Router1',
      'value<5ms',
      "the unit 'ms' is a time; mem:Router1 takes a size (B, KiB, MiB, GiB, kB, MB, GB; a plain number is MiB)"
    ],
    [
      'unknown size unit',
      'mem:Router1',
      'value<5Mb',
      "unknown unit 'Mb': mem:Router1 takes a size"
    ],
    ['unknown CPU unit', 'cpu:Router1', 'value<5m', "unknown unit 'm': cpu:Router1 takes a time"],
    [
      'count on CPU',
      'cpu:total',
      'count<5',
      'count does not apply to cpu:total, a cpu metric: it takes value, avg, min, max, med, p(N)'
    ],
    ['rate on memory', 'mem:web', 'rate<0.5', 'rate does not apply to mem:web, a memory metric'],
    ['negative memory', 'mem:web', 'value<-1MiB', 'is negative'],
    ['rate above 1', 'errors', 'rate<5', 'a rate is a fraction from 0 to 1'],
    ['trend aggregation on a rate', 'errors', 'p(99)<0.1', 'p(N) does not apply to errors'],
    ['rate on a time', 'latency', 'rate<0.1', 'rate does not apply to latency, a time metric'],
    ['value on a time', 'latency', 'value<5ms', 'value does not apply to latency'],
    ['count on a time', 'path', 'count>10', 'count does not apply to path'],
    ['avg on a single figure', 'throughput', 'avg>=500', 'avg does not apply to throughput'],
    [
      'unit on throughput',
      'throughput',
      'value>=500ms',
      "throughput, a value, takes a plain number, no unit ('ms')"
    ]
  ])('%s: %s %s', (_kind, metric, source, message) => {
    const [problem] = problems({ [metric]: [source] })
    expect(problem).toContain(message)
    expect(problem.startsWith(`${metric}.0: '${source}'`)).toBe(true)
  })
  it('an unknown metric, naming it', () => {
    expect(problems({ latenc: ['p(99)<1ms'] })).toEqual([
      expect.stringMatching(/^latenc: unknown metric 'latenc'/)
    ])
    expect(problems({ 'hop:': ['med<1ms'] })[0]).toMatch(/unknown metric 'hop:'/)
  })
  it.each([
    'cpu:',
    'mem:',
    'cpu:1web',
    'mem:web.1',
    'cpu:a|b',
    'mem:`x`',
    'memory:web',
    `cpu:${'a'.repeat(64)}`
  ])('a usage metric whose service is no service name: %s', metric => {
    expect(problems({ [metric]: ['value<1'] })).toEqual([
      expect.stringContaining(`unknown metric '${metric}'`)
    ])
    expect(problems({ [metric]: ['value<1'] })[0]).toContain(
      'cpu:<service>, cpu:total, mem:<service>'
    )
  })
  it('an empty list, a list of non-strings, and a list too long', () => {
    expect(problems({ latency: [] })).toHaveLength(1)
    expect(problems({ latency: [200] })).toHaveLength(1)
    expect(problems({ latency: Array(17).fill('med<1ms') })).toHaveLength(1)
  })
  it('not a mapping', () => {
    expect(problems(['p(99)<1ms'])).toHaveLength(1)
    expect(problems('latency')).toHaveLength(1)
  })
  it('every bad expression at once, each at its own index', () => {
    expect(
      problems({ latency: ['med<1ms', 'p(0)<1', 'avg<<1'] }).map(p => p.split(':')[0])
    ).toEqual(['latency.1', 'latency.2'])
  })
})
