import { build } from 'esbuild'
import * as path from 'node:path'

/** Bundles the CLI from source into build/ (inside the project, so it finds its assets). */
export async function buildCli(): Promise<string> {
  const outfile = path.join(__dirname, '..', '..', 'build', 'test-cli.js')
  await build({
    entryPoints: [path.join(__dirname, '..', '..', 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    external: ['cpu-features', './crypto/build/Release/sshcrypto.node'],
    logLevel: 'warning'
  })
  return outfile
}
