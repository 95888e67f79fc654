import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
import { commentKey } from '../src/action/comment-key'
import { DEFAULTS, InputError, parseInputs } from '../src/config/inputs'

describe('inputs', () => {
  it('defaults to the standard suite', () => {
    const inputs = parseInputs({})
    expect(inputs).toMatchObject({
      cases: ['1', '2', '3', '4'],
      docs: 500,
      'batch-size': 10,
      'doc-bytes': 1_000_000,
      runs: 3,
      profiles: ['minimal', 'burst'],
      requests: 20,
      'warmup-requests': 'auto',
      'sweep-rates': null,
      'sweep-max-latency': { text: '5x', bound: { kind: 'relative', factor: 5 } },
      engine: 'auto',
      'gnes-version': '0.0.47',
      topology: null,
      'alert-threshold': 0.1
    })
  })
  it('action.yml declares every input with a description and the same default', () => {
    const action = parse(fs.readFileSync(path.join(__dirname, '..', 'action.yml'), 'utf8'))
    expect(Object.keys(action.inputs).sort()).toEqual(Object.keys(DEFAULTS).sort())
    for (const [name, spec] of Object.entries<{ description: string; default: string }>(
      action.inputs
    )) {
      expect(spec.description.length).toBeGreaterThan(10)
      // A default the runner evaluates (the token, the comment key) is empty outside it.
      if (spec.default.startsWith('${{')) expect(DEFAULTS[name as keyof typeof DEFAULTS]).toBe('')
      else expect(spec.default).toBe(DEFAULTS[name as keyof typeof DEFAULTS])
    }
    expect(action.runs).toMatchObject({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post.js'
    })
  })
  it('names every bad input, its value and what was expected, in one error', () => {
    let error: Error | undefined
    try {
      parseInputs({ docs: 'many', engine: 'kubernetes', 'gnes-version': '1.0', runs: '0' })
    } catch (e) {
      error = e as Error
    }
    expect(error).toBeInstanceOf(InputError)
    expect(error!.message).toContain("input 'docs' = 'many': docs must be a whole number")
    expect(error!.message).toContain(
      "input 'engine' = 'kubernetes': engine must be one of auto, docker, local"
    )
    expect(error!.message).toContain(
      "input 'gnes-version' = '1.0': gnes-version must be a supported GNES release: 0.0.42, 0.0.43"
    )
    expect(error!.message).toContain(
      "input 'runs' = '0': runs must be auto or a whole number from 1 to 1000"
    )
  })
  it('splits lists and parses percentages and booleans', () => {
    const inputs = parseInputs({
      cases: '1, 3',
      topology: 'a.yml,b.yml',
      'alert-threshold': '5%',
      'auto-push': 'FALSE'
    })
    expect(inputs.cases).toEqual(['1', '3'])
    expect(inputs.topology).toEqual(['a.yml', 'b.yml'])
    expect(inputs['alert-threshold']).toBeCloseTo(0.05)
    expect(inputs['auto-push']).toBe(false)
    expect(() => parseInputs({ 'auto-push': 'yes' })).toThrow(/auto-push must be true or false/)
  })
  it('takes rates up to 10000 requests/s; a bad sweep list is named once, with its bad entries', () => {
    expect(parseInputs({ rate: '2560', 'sweep-rates': '400, 2560,10000' })).toMatchObject({
      rate: 2560,
      'sweep-rates': [400, 2560, 10000]
    })
    expect(() => parseInputs({ rate: '10001' })).toThrow(
      "input 'rate' = '10001': rate must be a number of requests per second from 0.01 to 10000, such as 5 or 0.5"
    )
    let error: Error | undefined
    try {
      parseInputs({ 'sweep-rates': '5,fast,20000,0,10' })
    } catch (e) {
      error = e as Error
    }
    expect(error!.message).toBe(
      "Invalid input:\n  input 'sweep-rates' = '5,fast,20000,0,10': sweep-rates must be auto or list rates in requests/s from 0.01 to 10000, such as 5,10,20 (not 'fast', '20000', '0')"
    )
  })

  it('says what each numeric input expects, and bounds every one (timers included)', () => {
    const said = (raw: Record<string, string>) => {
      try {
        parseInputs(raw)
      } catch (e) {
        return (e as Error).message
      }
      throw new Error(`accepted ${JSON.stringify(raw)}`)
    }
    const rate = 'must be a number of requests per second from 0.01 to 10000, such as 5 or 0.5'
    for (const v of ['NaN', '-5', '1e309', '0.0000001', '0']) {
      expect(said({ rate: v })).toBe(`Invalid input:\n  input 'rate' = '${v}': rate ${rate}`)
    }
    expect(said({ 'minimal-rate': 'abc' })).toContain(`minimal-rate ${rate}`)
    expect(said({ 'warmup-requests': '-1' })).toContain(
      'warmup-requests must be auto or a whole number from 0 to 100000'
    )
    expect(said({ requests: '99999999999999' })).toContain(
      'requests must be auto or a whole number from 2 to 100000'
    )
    expect(said({ 'sweep-step-seconds': '99999999999' })).toContain(
      'sweep-step-seconds must be at most 3600'
    )
    expect(said({ 'case-timeout': '3000000' })).toContain('case-timeout must be at most 86400')
    expect(said({ 'alert-threshold': '500%' })).toContain('alert-threshold must be at most 100%')
    expect(said({ 'doc-bytes': '1000000000' })).toContain('doc-bytes must be at most 100000000')
    expect(parseInputs({ rate: '0.01', 'case-timeout': '86400' })).toMatchObject({
      rate: 0.01,
      'case-timeout': 86400
    })
  })
})

describe('comment-key', () => {
  const action = parse(fs.readFileSync(path.join(__dirname, '..', 'action.yml'), 'utf8'))

  it('defaults on a runner to the workflow, the job and, in a matrix of several jobs, its values', () => {
    const given = action.inputs['comment-key'].default as string
    expect(given).toContain('${{ github.workflow }}')
    expect(given).toContain('${{ github.job }}')
    expect(given).toMatch(/strategy\.job-total > 1 && format\(' \/ \{0\}', toJSON\(matrix\)\)/)
  })

  it('is the input when given, else the workflow and job of the environment', () => {
    expect(parseInputs({ 'comment-key': '  mine ' })['comment-key']).toBe('mine')
    expect(parseInputs({})['comment-key']).toBeNull()
    const env = { GITHUB_WORKFLOW: 'Latency (PR)', GITHUB_JOB: 'bench' }
    expect(commentKey('mine', env)).toBe('mine')
    expect(commentKey(null, env)).toBe('Latency (PR) / bench')
    expect(commentKey(null, { GITHUB_WORKFLOW: 'Latency (PR)' })).toBe('Latency (PR)')
    expect(commentKey(null, {})).toBe('gnes-latency-bench')
  })
})
