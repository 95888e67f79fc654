/**
 * The HTTP load driver: an open-loop generator on node:http. A well-kept generator would be
 * preferred, but none fits the runner: vegeta's module is refused by the Go module proxy here (403
 * for github.com/tsenart/vegeta/v12), wrk2 is not packaged in Debian, Debian's wrk is closed loop
 * (a slow answer delays the requests behind it: coordinated omission), and k6 would be a Go build
 * on every runner, does not correct each request to its scheduled time, and its per-request output
 * lacks the response bodies the per-hop figures come from. So this driver keeps each request's due
 * time, actual send and completion, and the response part the hop figures need.
 */
import * as http from 'node:http'
import { z } from 'zod'
import { checkSchedule, nowMs, openLoop } from './open-loop'
import { startTrace, type TraceStart } from './trace-context'

/** Which part of a response the caller keeps for hop figures. */
export type Keep = 'none' | 'body' | 'headers'

export const HttpTargetSchema = z
  .object({
    url: z
      .string()
      .url()
      .refine(u => new URL(u).protocol === 'http:', 'must be an http:// URL'),
    method: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP method token'),
    headers: z.record(z.string()),
    body: z.string().nullable(),
    /** Accepted response statuses; any other is recorded as an error. */
    status: z.array(z.number().int().min(100).max(599)).min(1),
    /** At most what a Node timer holds (about 24.8 days). */
    timeoutMs: z
      .number()
      .positive()
      .max(2 ** 31 - 1),
    keep: z.enum(['none', 'body', 'headers'])
  })
  .strict()
export type HttpTarget = z.infer<typeof HttpTargetSchema>

/** One request's fate. Instants are epoch seconds; `scheduled` is null in a burst. */
export interface RequestRecord {
  scheduled: number | null
  sent: number
  done: number
  status: number | null
  /** Set for a failed request or an unexpected status. */
  error: string | null
  /** The body (keep 'body') or headers (keep 'headers') of an accepted answer. */
  body?: string
  headers?: Record<string, string>
  /** The W3C trace id sent in `traceparent`, when this request was traced. */
  traceId?: string
  /** Per-hop figures joined from its trace, [name, seconds] (metrics/trace-hops.ts). */
  hops?: [string, number][]
  /** What its trace brought back, once joined: the spans, and whether they were whole. */
  trace?: { spans: number; complete: boolean }
}

export interface SendOptions {
  /** Reuses connections across calls (e.g. runs of one profile); by default each call has its own. */
  agent?: http.Agent
  /**
   * Epoch milliseconds at which a paced schedule starts (request i due at it + i/rate), so two
   * drivers can share one clock; by default once the ticker runs.
   */
  startAtMs?: number
  trace?: TraceStart
}

/** A kept body is for hop figures only: a larger one is cut, and its hops then fail to parse. */
export const KEPT_BODY_LIMIT = 1 << 20

/** Keep-alive with no cap on sockets: an open loop must never queue a request behind another. */
export const keepAliveAgent = (): http.Agent =>
  new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity })

interface Prepared {
  options: http.RequestOptions
  body: Buffer | null
  accepted: Set<number>
  timeoutMs: number
  keep: Keep
  trace: TraceStart | null
}

/** Validates the target once, so a bad one throws here and never per request. */
function prepare(target: HttpTarget, agent: http.Agent, trace?: TraceStart): Prepared {
  const parsed = HttpTargetSchema.safeParse(target)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`bad HTTP target: ${issue.path.join('.') || 'target'} ${issue.message}`)
  }
  const t = parsed.data
  for (const [name, value] of Object.entries(t.headers)) {
    try {
      http.validateHeaderName(name)
      http.validateHeaderValue(name, value)
    } catch (e) {
      throw new Error(`bad HTTP target: header ${JSON.stringify(name)}: ${(e as Error).message}`)
    }
  }
  const url = new URL(t.url)
  const body = t.body === null ? null : Buffer.from(t.body)
  return {
    options: {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || 80,
      path: url.pathname + url.search,
      method: t.method,
      headers: body ? { ...t.headers, 'content-length': String(body.length) } : t.headers,
      agent
    },
    body,
    accepted: new Set(t.status),
    timeoutMs: t.timeoutMs,
    keep: t.keep,
    trace: trace ?? null
  }
}

/** The request's options, with a `traceparent` when it is one of the sampled share. */
function traced(p: Prepared): { options: http.RequestOptions; traceId?: string } {
  const started = startTrace(p.trace ?? undefined)
  if (!started) return { options: p.options }
  const { traceId, traceparent } = started
  return { options: { ...p.options, headers: { ...p.options.headers, traceparent } }, traceId }
}

const flatHeaders = (h: http.IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])
  )

/** Sends one request; always resolves, a failure becomes the record's error. */
function send(p: Prepared, scheduled: number | null): Promise<RequestRecord> {
  return new Promise(resolve => {
    const { options, traceId } = traced(p)
    const sent = nowMs()
    let settled = false
    const finish = (done: number, rest: Omit<RequestRecord, 'scheduled' | 'sent' | 'done'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({
        scheduled: scheduled === null ? null : scheduled / 1000,
        sent: sent / 1000,
        done: done / 1000,
        ...rest,
        ...(traceId && { traceId })
      })
    }
    const fail = (error: string, status: number | null = null) => finish(nowMs(), { status, error })
    const req = http.request(options, res => {
      const status = res.statusCode ?? null
      const ok = status !== null && p.accepted.has(status)
      const chunks: Buffer[] = []
      let size = 0
      if (ok && p.keep === 'body') {
        res.on('data', (c: Buffer) => {
          if (size < KEPT_BODY_LIMIT) chunks.push(c)
          size += c.length
        })
      } else {
        res.resume()
      }
      res.on('end', () => {
        const done = nowMs()
        if (!ok) return finish(done, { status, error: `unexpected status ${status}` })
        finish(done, {
          status,
          error: null,
          ...(p.keep === 'body' && {
            body: Buffer.concat(chunks).subarray(0, KEPT_BODY_LIMIT).toString()
          }),
          ...(p.keep === 'headers' && { headers: flatHeaders(res.headers) })
        })
      })
      res.on('error', e => fail(e.message, status))
      res.on('close', () => {
        if (!res.complete) fail('connection closed before the response ended', status)
      })
    })
    // Also for an answer whose body is still coming: a request is done when its body is.
    const timer = setTimeout(() => {
      fail(`no answer within ${p.timeoutMs} ms`)
      req.destroy()
    }, p.timeoutMs)
    req.on('error', e => fail(e.message))
    req.end(p.body ?? undefined)
  })
}

async function withAgent<T>(opts: SendOptions, work: (a: http.Agent) => Promise<T>): Promise<T> {
  const agent = opts.agent ?? keepAliveAgent()
  try {
    return await work(agent)
  } finally {
    if (!opts.agent) agent.destroy()
  }
}

/**
 * Open loop: request i is due at t0 + i/rate and is sent then, however many earlier requests are
 * still in flight. Records come back in request order.
 */
export async function sendPaced(
  target: HttpTarget,
  rate: number,
  count: number,
  opts: SendOptions = {}
): Promise<RequestRecord[]> {
  checkSchedule(rate, count)
  return withAgent(opts, agent => {
    const p = prepare(target, agent, opts.trace)
    return openLoop(rate, count, due => send(p, due), opts.startAtMs)
  })
}

/** Every request issued at once, each on its own connection unless one is free. */
export async function sendBurst(
  target: HttpTarget,
  count: number,
  opts: SendOptions = {}
): Promise<RequestRecord[]> {
  checkSchedule(null, count)
  return withAgent(opts, agent => {
    const p = prepare(target, agent, opts.trace)
    return Promise.all(Array.from({ length: count }, () => send(p, null)))
  })
}
