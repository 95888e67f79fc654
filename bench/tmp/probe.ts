import { parseInputs } from '../../src/config/inputs'
import { warningsOnly } from '../../src/log'
import { runSuite } from '../../src/suite/run'
async function main() {
  const inputs = parseInputs({
    cases: '1',
    engine: 'local',
    profiles: 'minimal',
    requests: process.argv[2] ?? '40',
    'warmup-requests': process.argv[3] ?? '5',
    'out-dir': 'out/probe'
  })
  const r = await runSuite(inputs, { log: warningsOnly })
  for (const run of r.cases[0].runs) {
    const s = run.samples
    const p = s.path ?? s.roundtrip
    console.log(
      run.warmup ? 'W' : 'M',
      Math.round(run.summaries[s.path ? 'path' : 'roundtrip'].median * 1000),
      p.map(x => Math.round(x * 1000)).join(' ')
    )
    if (s['c->f:send'])
      console.log('  c2f', s['c->f:send'].map(x => Math.round(x * 1000)).join(' '))
  }
}
main()
