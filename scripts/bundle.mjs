// Bundles each entry point into one file in dist/, as the action runs it (no node_modules there).
import { build } from 'esbuild'

const entries = { index: 'src/main.ts', post: 'src/post.ts', cli: 'src/cli.ts' }

await Promise.all(
  Object.entries(entries).map(([name, entry]) =>
    build({
      entryPoints: [entry],
      outfile: `dist/${name}.js`,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: false,
      legalComments: 'none',
      // The optional native ssh2/cpu-features path of docker-modem is not used (no ssh://).
      external: ['cpu-features', './crypto/build/Release/sshcrypto.node'],
      logLevel: 'warning'
    })
  )
)
