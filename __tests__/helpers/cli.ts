import { build } from 'esbuild'
import * as path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const options = require('../../scripts/esbuild-options.cjs')

const root = path.join(__dirname, '..', '..')

/** The files the bundles start from, as scripts/bundle.mjs names them. */
const ENTRIES = { cli: 'cli-index.ts', main: 'index.ts', post: 'post-index.ts' }

/** Bundles an entry point from source into build/ (inside the project, so it finds its assets). */
export async function buildEntry(entry: keyof typeof ENTRIES): Promise<string> {
  const outfile = path.join(root, 'build', `test-${entry}.js`)
  await build({ ...options, entryPoints: [path.join(root, 'src', ENTRIES[entry])], outfile })
  return outfile
}

export const buildCli = (): Promise<string> => buildEntry('cli')
