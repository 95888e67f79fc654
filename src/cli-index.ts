#!/usr/bin/env node
import { cli } from './cli'
import { printError } from './commands/output'

cli(process.argv.slice(2)).then(
  code => {
    process.exitCode = code
  },
  (err: unknown) => {
    printError(`error: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  }
)
