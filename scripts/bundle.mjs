// Bundles each entry point into one file in dist/ (or --outdir DIR, for the staleness check):
// the action runs these files with no node_modules beside them.
import { build } from 'esbuild'
import { parseArgs } from 'node:util'
import options from './esbuild-options.cjs'

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } })
const entries = { index: 'src/index.ts', post: 'src/post-index.ts', cli: 'src/cli-index.ts' }

await Promise.all(
  Object.entries(entries).map(([name, entry]) =>
    build({ ...options, entryPoints: [entry], outfile: `${values.outdir}/${name}.js` })
  )
)
