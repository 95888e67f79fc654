import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
import { DEFAULTS } from '../src/config/inputs'
import { loadTopologyFile } from '../src/topology/load'

const dir = path.join(__dirname, '..', 'workflows')
const files = fs.readdirSync(dir).filter(f => f.endsWith('.yml'))

interface Step {
  uses?: string
  with?: Record<string, string>
}
const steps = (wf: { jobs: Record<string, { steps: Step[] }> }): Step[] =>
  Object.values(wf.jobs).flatMap(j => j.steps)

describe('example workflows', () => {
  test('record on push, on release, on schedule; compare on pull_request; comment via workflow_run', () => {
    const triggers = files.map(f =>
      Object.keys(parse(fs.readFileSync(path.join(dir, f), 'utf8')).on)
    )
    expect(triggers.flat()).toEqual(
      expect.arrayContaining(['push', 'release', 'schedule', 'pull_request', 'workflow_run'])
    )
  })

  test.each(files)('%s passes only inputs the action has', file => {
    const wf = parse(fs.readFileSync(path.join(dir, file), 'utf8'))
    for (const step of steps(wf).filter(s => s.uses?.startsWith('your-org/gnes-latency-bench'))) {
      expect(step.uses).toBe('your-org/gnes-latency-bench@v1')
      for (const key of Object.keys(step.with ?? {})) expect(Object.keys(DEFAULTS)).toContain(key)
    }
  })
})

test('the regression benchmark topologies load and differ only in the sleep', () => {
  const load = (ms: number) =>
    loadTopologyFile(path.join(__dirname, '..', 'topologies', 'examples', `blocking-${ms}ms.yml`))
  const [a, b] = [load(100), load(105)]
  expect(a.id).toBe(b.id)
  expect(a.services.map(s => ('model' in s ? s.model : s.name))).toEqual([
    'Frontend',
    '!BlockRouter {parameters: {sleep_sec: 0.100}}'
  ])
  expect(b.services[1]).toMatchObject({ model: '!BlockRouter {parameters: {sleep_sec: 0.105}}' })
})
