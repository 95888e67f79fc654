/**
 * `--help` of every command gives each flag's meaning and default, and a flag named as an action
 * input takes both from the same place as the action: action.yml's description, the shared default.
 */
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
import { commands } from '../src/commands'
import { commandHelp, describeFlag } from '../src/commands/help'
import { DEFAULTS } from '../src/config/inputs'
import { buildCli } from './helpers/bundle'

const action = parse(fs.readFileSync(path.join(__dirname, '..', 'action.yml'), 'utf8')) as {
  inputs: Record<string, { description: string }>
}
/** Help text is filled into lines; compare it word by word. */
const words = (text: string): string => text.split(/\s+/).filter(Boolean).join(' ')

describe.each(commands.map(c => [c.name, c] as const))('%s --help', (_, cmd) => {
  const help = words(commandHelp(cmd))

  test('lists every flag with a description of its own or its action input', () => {
    for (const [name, flag] of Object.entries(cmd.options)) {
      const d = describeFlag(name, flag)
      expect(d.description.length).toBeGreaterThan(10)
      expect(help).toContain(
        `--${name}${flag.type === 'string' ? ' VALUE' : ''} ${words(d.description)}`
      )
      if (!flag.description && name in action.inputs) {
        expect(d.description).toBe(action.inputs[name].description.trim())
      }
    }
  })

  test('shows the shared default of every action input it takes', () => {
    for (const [name, flag] of Object.entries(cmd.options)) {
      const shared = DEFAULTS[name as keyof typeof DEFAULTS]
      if (flag.default === undefined && shared) {
        expect(help).toContain(`(default: ${shared})`)
        expect(describeFlag(name, flag).default).toBe(shared)
      }
    }
  })
})

test('run takes every input that is not an Actions-only one, each described as in action.yml', () => {
  const run = commands.find(c => c.name === 'run')!
  // result-file runs nothing: the record command's --result takes its place.
  const actionOnly = [
    'auto-push',
    'fail-on-regression',
    'on-inconclusive',
    'comment-on-pr',
    'comment-key',
    'check-run',
    'cache',
    'result-file'
  ]
  const expected = Object.keys(action.inputs).filter(n => !actionOnly.includes(n))
  expect(Object.keys(run.options)).toEqual(expect.arrayContaining(expected))
  // Paired mode's inputs come to the command line with their descriptions from action.yml.
  expect(expected).toEqual(
    expect.arrayContaining([
      'baseline',
      'baseline-gnes-version',
      'baseline-topology',
      'alert-threshold'
    ])
  )
  expect(Object.keys(run.options)).not.toContain('result-file')
  expect(Object.keys(commands.find(c => c.name === 'record')!.options)).toContain('result')
  const help = words(commandHelp(run))
  for (const name of expected.filter(n => !run.options[n].description)) {
    expect(help).toContain(words(action.inputs[name].description))
  }
})

test('the bundled CLI prints the same help, reading action.yml from the project', async () => {
  const cli = await buildCli()
  const r = spawnSync(process.execPath, [cli, 'prune', '--help'], { encoding: 'utf8' })
  expect(r.status).toBe(0)
  expect(words(r.stdout)).toContain(
    `--max-entries VALUE ${words(action.inputs['max-entries'].description)} (default: 50)`
  )
  expect(words(r.stdout)).toContain('--dry-run List what would be deleted; change nothing.')
})
