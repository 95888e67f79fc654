import { parseArgs } from 'node:util'
import { commands } from './commands'
import { print, printError } from './commands/output'
import { InputError } from './config/inputs'

function usage(): string {
  const rows = commands.map(c => `  ${c.name.padEnd(16)}${c.summary}`)
  return `usage: gnes-latency-bench <command> [flags]\n\ncommands:\n${rows.join('\n')}\n\n'gnes-latency-bench <command> --help' lists a command's flags.`
}

function commandHelp(name: string): string {
  const cmd = commands.find(c => c.name === name)!
  const flags = Object.entries(cmd.options).map(
    ([flag, o]) => `  --${flag}${o.type === 'string' ? ' VALUE' : ''}`
  )
  return `usage: gnes-latency-bench ${name} [flags]\n\n${cmd.summary}\n\nflags:\n${flags.join('\n')}`
}

/** The CLI: argv in, the process exit code out; a thrown error is the caller's to print. */
export async function cli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h') {
    print(usage())
    return name ? 0 : 2
  }
  const cmd = commands.find(c => c.name === name)
  if (!cmd) {
    printError(`unknown command '${name}'\n\n${usage()}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    print(commandHelp(name))
    return 0
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: cmd.options,
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
