import { InputError } from './input-error'

/**
 * The GNES releases this action benchmarks: 0.0.42 is the first with `--dump_route` and
 * BlockRouter, which the latency metrics depend on, and 0.0.47 the last release. The
 * `gnes-version` input must be one of them; action.yml and docs/gnes-versions.md say the same.
 */
export const SUPPORTED_GNES_VERSIONS = [
  '0.0.42',
  '0.0.43',
  '0.0.44',
  '0.0.45',
  '0.0.46',
  '0.0.47'
] as const

const GNES_VERSION_PATTERN = /^0\.0\.(\d+)$/

/** Oldest GNES with `--dump_route` and BlockRouter. */
const MIN_GNES_PATCH = 42

const supportedRange = `${SUPPORTED_GNES_VERSIONS[0]} – ${SUPPORTED_GNES_VERSIONS.at(-1)}`

/**
 * Why a GNES version found in an image or a checkout cannot be benchmarked, or null when it can.
 * Versions that do not parse (a development build) and newer ones pass: only the metrics' needs
 * are enforced here, the supported list is enforced on the `gnes-version` input.
 */
export function unsupportedVersion(version: string): string | null {
  const patch = GNES_VERSION_PATTERN.exec(version)?.[1]
  if (patch === undefined || Number(patch) >= MIN_GNES_PATCH) return null
  return `GNES 0.0.${MIN_GNES_PATCH} is the first with --dump_route and BlockRouter, which the latency metrics need (supported: ${supportedRange})`
}

/** The rule of an input naming a GNES release (`gnes-version`, `baseline-gnes-version`). */
export const gnesVersionRule = (input: string): string =>
  `${input} must be a supported GNES release: ${SUPPORTED_GNES_VERSIONS.join(', ')}`

/** Refuses an unsupported version with the same InputError on every engine. */
export function checkSupportedVersion(version: string): void {
  const reason = unsupportedVersion(version)
  if (reason) {
    throw new InputError(`Invalid input:\n  input 'gnes-version' = '${version}': ${reason}`)
  }
}
