/**
 * On SIGINT/SIGTERM, runs `cleanup` (stop every service) and exits with the conventional code.
 * A second signal while cleaning up falls through to Node's default and kills us at once; the
 * local engine's parent-death signal then still takes the services down.
 */
export function onInterrupt(cleanup: () => Promise<void>, log: (m: string) => void): () => void {
  const handler = (signal: NodeJS.Signals) => {
    remove()
    log(`received ${signal}: stopping every service of this suite`)
    void cleanup()
      .catch(err => log(`cleanup failed: ${(err as Error).message}`))
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143))
  }
  const remove = () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return remove
}
