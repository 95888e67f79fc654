import { z } from 'zod'

/** One hop of a request as the frontend's `--dump_route` file records it (protobuf JSON). */
interface Route {
  service: string
  start: number
  end: number
}
export type Envelope = Route[]

/** A dump line: the request it answers (ids count from 0 within a stream) and its routes. */
export interface DumpedEnvelope {
  requestId: number
  routes: Envelope
}

/**
 * RFC 3339 with 0–9 fraction digits, parsed to epoch seconds. Date.parse would keep only
 * milliseconds, and router hops are often shorter than one.
 */
export function parseTimestamp(text: string): number {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(text)
  if (!m) throw new Error(`not an RFC 3339 timestamp: '${text}'`)
  const whole = Date.parse(`${m[1]}${m[3]}`)
  if (Number.isNaN(whole)) throw new Error(`not an RFC 3339 timestamp: '${text}'`)
  return whole / 1000 + (m[2] ? Number(`0${m[2]}`) : 0)
}

const RouteJson = z.object({
  service: z.string(),
  startTime: z.string(),
  endTime: z.string()
})
// Protobuf JSON omits fields at their default, so request 0 has no `requestId`; int64 is a string.
const EnvelopeJson = z
  .object({
    requestId: z.union([z.string().regex(/^\d+$/), z.number().int()]).default(0),
    routes: z.array(RouteJson).min(1)
  })
  .passthrough()

export class RouteDumpError extends Error {}

/**
 * Parses the dump's JSON lines (one envelope per response, in receive order); `firstLine` is the
 * file's line number of lines[0], so errors point into the file.
 */
export function parseRouteDump(lines: string[], source: string, firstLine = 1): DumpedEnvelope[] {
  return lines.map((line, i) => {
    const where = `${source} line ${firstLine + i}`
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      throw new RouteDumpError(`${where}: not JSON: ${line.slice(0, 80)}`)
    }
    const parsed = EnvelopeJson.safeParse(json)
    if (!parsed.success) {
      throw new RouteDumpError(`${where}: not a route envelope: ${parsed.error.issues[0].message}`)
    }
    try {
      return {
        requestId: Number(parsed.data.requestId),
        routes: parsed.data.routes.map(r => ({
          service: r.service,
          start: parseTimestamp(r.startTime),
          end: parseTimestamp(r.endTime)
        }))
      }
    } catch (err) {
      throw new RouteDumpError(`${where}: ${(err as Error).message}`)
    }
  })
}
