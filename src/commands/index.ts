import { bisectCommand } from './bisect'
import { cleanupCommand } from './cleanup'
import type { Command } from './command'
import { compareCommand } from './compare'
import { exportCommand } from './export'
import { importLegacyCommand } from './import-legacy'
import { pruneCommand } from './prune'
import { recordCommand } from './record'
import { renderCommand } from './render'
import { runCommand } from './run'

/** Sub-commands in the order `--help` lists them. */
export const commands: Command[] = [
  runCommand,
  recordCommand,
  compareCommand,
  bisectCommand,
  importLegacyCommand,
  pruneCommand,
  renderCommand,
  exportCommand,
  cleanupCommand
]
