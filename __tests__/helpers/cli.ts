import { build } from 'esbuild'
import * as path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const options = require('../../scripts/esbuild-options.cjs')

const root = path.join(__dirname, '..', '..')

/** Bundles an entry point from source into build/ (inside the project, so it finds its assets). */
export async function buildEntry(entry: 'cli' | 'main' | 'post'): Promise<string> {
  const outfile = path.join(root, 'build', `test-${entry}.js`)
  await build({ ...options, entryPoints: [path.join(root, 'src', `${entry}.ts`)], outfile })
  return outfile
}

export const buildCli = (): Promise<string> => buildEntry('cli')
