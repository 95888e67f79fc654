// Bundles each entry point into one file in dist/ (or --outdir DIR, for the staleness check):
// the action runs these files with no node_modules beside them. dist/licenses.txt carries the
// licence of every third-party package bundled, each licence text once.
import { build } from 'esbuild'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import options from './esbuild-options.cjs'

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } })
// The action's steps run on node24 (action.yml); the CLI and the reaper on any Node the package allows.
const entries = {
  index: ['src/index.ts', 'node24'],
  post: ['src/post-index.ts', 'node24'],
  cli: ['src/cli-index.ts', 'node20'],
  reaper: ['src/reaper-index.ts', 'node20']
}

const results = await Promise.all(
  Object.entries(entries).map(([name, [entry, target]]) =>
    build({
      ...options,
      target,
      entryPoints: [entry],
      outfile: `${values.outdir}/${name}.js`,
      metafile: true
    })
  )
)

// Files a bundled package reads beside itself at run time (`__dirname` is dist/ once bundled):
// dockerode's BuildKit session loads its auth.proto for every BuildKit build.
fs.cpSync('node_modules/dockerode/lib/proto', `${values.outdir}/proto`, { recursive: true })

/** Every package directory under node_modules that contributed to a bundle. */
const packages = new Set()
for (const { metafile } of results) {
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (m) packages.add(m[1])
  }
}

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i
const byText = new Map()
for (const dir of packages) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  const file = fs.readdirSync(dir).find(f => LICENCE_FILE.test(f))
  const spdx = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'unknown')
  const text = file
    ? fs.readFileSync(path.join(dir, file), 'utf8').replace(/\r\n/g, '\n').trim()
    : `${spdx} (the package ships no licence file)`
  byText.set(text, [...(byText.get(text) ?? []), `${pkg.name}@${pkg.version} (${spdx})`])
}
// Files copied into src/ from other projects, bundled like packages.
const vendored = fs.readFileSync('src/topology/compose/compose-spec.LICENSE', 'utf8').trim()
byText.set(vendored, [
  ...(byText.get(vendored) ?? []),
  'compose-spec/compose-spec schema/compose-spec.json (Apache-2.0; src/topology/compose/compose-spec.md)'
])
const sections = [...byText]
  .map(([text, names]) => [names.sort(), text])
  .sort((a, b) => (a[0][0] < b[0][0] ? -1 : 1))
  .map(([names, text]) => `${names.join('\n')}\n\n${text}\n`)
fs.writeFileSync(
  `${values.outdir}/licenses.txt`,
  'The bundles in this directory include the following third-party packages. Each licence\n' +
    'text follows the packages it covers.\n\n' +
    sections.join(`\n${'-'.repeat(72)}\n\n`)
)
