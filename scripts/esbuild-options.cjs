// One set of bundling options for dist/, the benchmarks and the tests that spawn the CLI.
module.exports = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  // ssh2 (under dockerode) loads optional native addons inside try/catch; ssh:// is not used.
  external: ['cpu-features', '*.node'],
  logLevel: 'warning'
}
