import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
import { AUTO_THRESHOLD, DEFAULTS, parseInputs } from '../src/config/inputs'
import { commands } from '../src/commands'
import { commandHelp } from '../src/commands/help'

/** One default threshold story: action.yml, the command line and the docs tell the same one. */

const root = path.join(__dirname, '..')
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')
const action = parse(read('action.yml')) as {
  inputs: Record<string, { default?: string; description: string }>
}
const percent = (x: number) => `${+(x * 100).toFixed(1)} %`
const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('alert-threshold: auto', () => {
  test('is the default of action.yml and of the command line', () => {
    expect(action.inputs['alert-threshold'].default).toBe('auto')
    expect(DEFAULTS['alert-threshold']).toBe('auto')
    for (const name of ['run', 'compare', 'record']) {
      const help = flat(commandHelp(commands.find(c => c.name === name)!))
      expect(help).toMatch(/--alert-threshold VALUE [^-]*\(default: auto\)/)
    }
  })

  test('is history mode’s and paired mode’s figure, as action.yml and the docs say', () => {
    expect(parseInputs({})['alert-threshold']).toBe(AUTO_THRESHOLD.history)
    expect(
      parseInputs({
        baseline: 'paired',
        'gnes-version': '0.0.47',
        'baseline-gnes-version': '0.0.46'
      })['alert-threshold']
    ).toBe(AUTO_THRESHOLD.paired)
    expect(parseInputs({ baseline: 'paired', 'alert-threshold': '5%' })['alert-threshold']).toBe(
      0.05
    )
    const [history, paired] = [AUTO_THRESHOLD.history, AUTO_THRESHOLD.paired].map(percent)
    const said = flat(action.inputs['alert-threshold'].description).replace(/(\d)%/g, '$1 %')
    expect(said).toContain(`auto: ${history} in history mode`)
    expect(said).toContain(`${paired} in paired mode`)
    expect(flat(read('README.md'))).toContain(
      `\`alert-threshold\` (\`auto\`: ${history} in history mode, ${paired} in paired mode)`
    )
    const docs = flat(read('docs/regression.md'))
    expect(docs).toContain(`| history (\`baseline: history\`) | **${history}** |`)
    expect(docs).toContain(`| paired (\`baseline: paired\`) | **${paired}** |`)
  })
})
