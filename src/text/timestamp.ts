import { z } from 'zod'

/** A timestamp as the files hold it: ISO 8601 with its offset, `2019-09-27T06:36:57.123Z`. */
export const isoTime = z.string().datetime({ offset: true })

/** `2019-09-27 06:36:57 UTC`: what tables show; fractions of a second are noise there. */
export const fmtTime = (iso: string): string =>
  iso
    .replace('T', ' ')
    .replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, (_, _f, zone: string) =>
      zone === 'Z' ? ' UTC' : ` ${zone}`
    )
