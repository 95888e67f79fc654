import { build } from 'esbuild'
import * as path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const options = require('../../scripts/esbuild-options.cjs')

/** Bundles the CLI from source into build/ (inside the project, so it finds its assets). */
export async function buildCli(): Promise<string> {
  const root = path.join(__dirname, '..', '..')
  const outfile = path.join(root, 'build', 'test-cli.js')
  await build({ ...options, entryPoints: [path.join(root, 'src', 'cli.ts')], outfile })
  return outfile
}
