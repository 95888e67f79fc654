import { z } from 'zod'
import { isoTime } from '../text/timestamp'

/** Which GNES an engine provisioned: what `prepare()` reports and every result records. */
export const GnesMetaSchema = z.object({
  version: z.string(),
  /** Image tag or package version, as the legacy `version_tag`. */
  tag: z.string(),
  /** GNES git SHA (`GNES_VCS_VERSION` in images); null where the install does not say. */
  vcs: z.string().nullable(),
  /** `GNES_BUILD_DATE` in images; null for a PyPI install. */
  buildDate: isoTime.nullable()
})
export type GnesMeta = z.infer<typeof GnesMetaSchema>
