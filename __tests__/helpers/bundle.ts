import { build } from 'esbuild'
import * as path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const options = require('../../scripts/esbuild-options.cjs')

const root = path.join(__dirname, '..', '..')

/** The files the bundles start from, as scripts/bundle.mjs names them. */
const ENTRIES = { cli: 'cli-index.ts', main: 'index.ts', post: 'post-index.ts' }

/** Bundles a TypeScript entry into build/ (inside the project, so it finds its assets). */
export async function bundle(entry: string, name: string): Promise<string> {
  const outfile = path.join(root, 'build', name)
  await build({ ...options, entryPoints: [entry], outfile })
  return outfile
}

/** Bundles one of the project's entry points from source. */
export const buildEntry = (entry: keyof typeof ENTRIES): Promise<string> =>
  bundle(path.join(root, 'src', ENTRIES[entry]), `test-${entry}.js`)

export const buildCli = (): Promise<string> => buildEntry('cli')
