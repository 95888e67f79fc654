import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
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
      if (name !== 'github-token')
        expect(spec.default).toBe(DEFAULTS[name as keyof typeof DEFAULTS])
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
      "input 'rate' = '10001': rate must be above 0 and at most 10000 requests/s"
    )
    let error: Error | undefined
    try {
      parseInputs({ 'sweep-rates': '5,fast,20000,0,10' })
    } catch (e) {
      error = e as Error
    }
    expect(error!.message).toBe(
      "Invalid input:\n  input 'sweep-rates' = '5,fast,20000,0,10': sweep-rates must be auto or list rates in requests/s above 0 and at most 10000, such as 5,10,20 (not 'fast', '20000', '0')"
    )
  })
})
