import { z } from 'zod'
import { fmtRate } from '../text/rate'

const rate = z.number().positive().finite()

/**
 * How requests are offered to a topology. `burst` is the legacy standard load (every request of a
 * run handed to one StreamCall at once); the paced kinds send open loop on a schedule.
 */
export const ProfileSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('burst') }).strict(),
  /** Paced at the case's minimal-load rate: requests never queue behind each other. */
  z.object({ kind: z.literal('minimal'), rate }).strict(),
  z.object({ kind: z.literal('paced'), rate }).strict(),
  /** Offered rates in the order they ran; `auto` searched upward from the first. */
  z.object({ kind: z.literal('sweep'), auto: z.boolean(), rates: z.array(rate).min(1) }).strict()
])
export type Profile = z.infer<typeof ProfileSchema>
export type ProfileKind = Profile['kind']

/** Every kind, in the order the `profiles` input lists them by default. */
export const PROFILE_KINDS = [
  'minimal',
  'burst',
  'paced',
  'sweep'
] as const satisfies readonly ProfileKind[]

/** A kind left out of PROFILE_KINDS fails to compile here. */
const everyKind: Exclude<ProfileKind, (typeof PROFILE_KINDS)[number]> extends never ? true : never =
  true
void everyKind

/** Marks a switch over kinds (or their traits) as exhaustive: a new one fails to compile here. */
export function unanswered(x: never): never {
  throw new Error(`no answer for ${JSON.stringify(x)}`)
}

/**
 * Entries of one key form one series: only they are compared and charted together. A sweep's key
 * leaves out its rates, because an automatic search picks them anew on every run.
 */
export function profileKey(p: Profile): string {
  switch (p.kind) {
    case 'burst':
    case 'sweep':
      return p.kind
    case 'minimal':
    case 'paced':
      return `${p.kind}@${fmtRate(p.rate)}`
    default:
      return unanswered(p)
  }
}

/** A profile in words; `generic` for a generic case, where the burst has no legacy to compare with. */
export function profileLabel(p: Profile, generic = false): string {
  switch (p.kind) {
    case 'burst':
      return generic
        ? 'burst (every request of a run at once)'
        : 'burst (standard load, legacy-comparable)'
    case 'minimal':
      return `minimal load (paced, ${fmtRate(p.rate)} req/s)`
    case 'paced':
      return `paced (${fmtRate(p.rate)} req/s)`
    case 'sweep':
      return `rate sweep (${p.auto ? 'automatic, ' : ''}${p.rates.map(r => fmtRate(r)).join(', ')} req/s)`
    default:
      return unanswered(p)
  }
}
