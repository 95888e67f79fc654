#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { commands } from './commands'

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

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h') {
    console.log(usage())
    return name ? 0 : 2
  }
  const cmd = commands.find(c => c.name === name)
  if (!cmd) {
    console.error(`unknown command '${name}'\n\n${usage()}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandHelp(name))
    return 0
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: cmd.options,
    allowPositionals: true,
    strict: true
  })
  return cmd.run(values as Record<string, string | boolean | undefined>, positionals)
}

main(process.argv.slice(2)).then(
  code => {
    process.exitCode = code
  },
  (err: unknown) => {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  }
)
