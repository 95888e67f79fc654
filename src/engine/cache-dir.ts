import * as os from 'node:os'
import * as path from 'node:path'

/** Where provisioned GNES is kept between runs: venvs, and image archives for the action's cache. */
export function cacheRoot(): string {
  return (
    process.env.GNES_BENCH_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gnes-latency-bench')
  )
}

/** The image archives' directory (`docker save` of a PyPI build), kept only by the action's cache. */
export const imageArchiveDir = (): string => path.join(cacheRoot(), 'images')
