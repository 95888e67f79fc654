import { inputDescriptions } from '../config/action-manifest'
import { DEFAULTS } from '../config/inputs'
import type { Command, Flag } from './command'

const WIDTH = 80
const INDENT = '      '

/** Words filled into lines of at most WIDTH columns, each starting with the indent. */
function fill(text: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && INDENT.length + line.length + 1 + word.length > WIDTH) {
      lines.push(INDENT + line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(INDENT + line)
  return lines
}

/** A flag's meaning and default: its own, or those of the action input of the same name. */
export function describeFlag(name: string, flag: Flag): { description: string; default?: string } {
  const description = flag.description ?? inputDescriptions()[name]
  if (!description) throw new Error(`--${name} has no description (nor an action input's)`)
  const shared = name in DEFAULTS ? DEFAULTS[name as keyof typeof DEFAULTS] : undefined
  const fallback = flag.default ?? shared
  return { description, default: fallback === '' ? undefined : fallback }
}

export function usage(commands: readonly Command[]): string {
  const rows = commands.map(c => `  ${c.name.padEnd(16)}${c.summary}`)
  return `usage: gnes-latency-bench <command> [flags]\n\ncommands:\n${rows.join('\n')}\n\n'gnes-latency-bench <command> --help' lists a command's flags.`
}

export function commandHelp(cmd: Command): string {
  const flags = Object.entries(cmd.options).flatMap(([name, flag]) => {
    const d = describeFlag(name, flag)
    const text =
      d.default === undefined ? d.description : `${d.description} (default: ${d.default})`
    return [`  --${name}${flag.type === 'string' ? ' VALUE' : ''}`, ...fill(text)]
  })
  return `usage: gnes-latency-bench ${cmd.name} [flags]\n\n${cmd.summary}\n\nflags:\n${flags.join('\n')}`
}
