import { GNES_VERSION_PATTERN, InputError } from './inputs'

/** Oldest GNES with `--dump_route` and BlockRouter, which the latency metrics depend on. */
export const MIN_GNES_PATCH = 42

/** Why a GNES version cannot be benchmarked, or null when it can (unparsable versions pass). */
export function unsupportedVersion(version: string): string | null {
  const patch = GNES_VERSION_PATTERN.exec(version)?.[1]
  if (patch === undefined || Number(patch) >= MIN_GNES_PATCH) return null
  return `GNES 0.0.${MIN_GNES_PATCH} is the first with --dump_route and BlockRouter, which the latency metrics need (supported: 0.0.42 – 0.0.47)`
}

/** Refuses an unsupported version with the same InputError on every engine. */
export function checkSupportedVersion(version: string): void {
  const reason = unsupportedVersion(version)
  if (reason) {
    throw new InputError(`Invalid input:\n  input 'gnes-version' = '${version}': ${reason}`)
  }
}
