// Runs a TypeScript script (a benchmark) from source: bundle into build/, then execute it there,
// inside the project, so it finds topologies/, templates/ and python/.
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import * as path from 'node:path'
import options from './esbuild-options.cjs'

const [entry, ...args] = process.argv.slice(2)
const outfile = path.join('build', `${path.basename(entry, '.ts')}.js`)
// Run inside the project, a script finds node_modules: the browser driver (which loads its own
// files at run time and cannot be bundled) stays a package there.
await build({
  ...options,
  external: [...options.external, 'playwright-core'],
  entryPoints: [entry],
  outfile
})
const { status } = spawnSync(process.execPath, [outfile, ...args], { stdio: 'inherit' })
process.exit(status ?? 1)
