import { parseArgs } from 'node:util'
import { commands } from './commands'
import { print, printError } from './commands/output'
import { InputError } from './config/inputs'
import { commandHelp, usage } from './commands/help'

/** The CLI: argv in, the process exit code out; a thrown error is the caller's to print. */
export async function cli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h') {
    print(usage(commands))
    return name ? 0 : 2
  }
  const cmd = commands.find(c => c.name === name)
  if (!cmd) {
    printError(`unknown command '${name}'\n\n${usage(commands)}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    print(commandHelp(cmd))
    return 0
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: Object.fromEntries(Object.entries(cmd.options).map(([n, f]) => [n, { type: f.type }])),
    allowPositionals: true,
    strict: true
  })
  // Every value is a flag: a stray word (`run 5`) or `--case=` is a mistake, never ignored.
  if (positionals.length > 0) {
    throw new InputError(
      `${name} takes flags only, got the argument '${positionals[0]}' (see '${name} --help')`
    )
  }
  const empty = Object.entries(values).find(([, v]) => typeof v === 'string' && v.trim() === '')
  if (empty) throw new InputError(`--${empty[0]} is empty; give it a value or leave it out`)
  return cmd.run(values as Record<string, string | boolean | undefined>, positionals)
}
