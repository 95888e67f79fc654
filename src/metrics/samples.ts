import { RouteDumpError, type Envelope } from './envelope'

/** Per-request values of every metric, seconds, in receive order. */
export interface RequestSamples {
  /** Display order: roundtrip, frontend send/recv, hops along the chain, service times. */
  metrics: string[]
  samples: Record<string, number[]>
}

/** Clock skew between processes can make a tiny interval negative; it is zero, not negative. */
export const clamp = (x: number): number => (x < 0 ? 0 : x)

/** Hop names for a chain of n routers: f->r1, r1->r2, …, rn->f (the legacy names for n = 2). */
export function hopNames(routers: number): string[] {
  const node = (i: number) => (i === 0 || i === routers + 1 ? 'f' : `r${i}`)
  return Array.from({ length: routers + 1 }, (_, i) => `${node(i)}->${node(i + 1)}:send`)
}

/** Intervals between consecutive instants, in time order. */
export function gaps(instants: number[]): number[] {
  const sorted = [...instants].sort((a, b) => a - b)
  return sorted.slice(1).map((t, i) => t - sorted[i])
}

export const procNames = (routers: number): string[] =>
  Array.from({ length: routers }, (_, i) => `r${i + 1}:proc`)

/** Every metric of a chain of n routers, in display order: roundtrip, frontend, hops, service times. */
export function metricNames(routers: number): string[] {
  return ['roundtrip', 'f:send', 'f:recv', ...hopNames(routers), ...procNames(routers)]
}

/**
 * Envelope routes are [Frontend, R1, …, Rn]. Hops are the gaps between one service's end and
 * the next one's start (the first from the frontend's start, the last to its end), so network
 * and queueing time is separated from each router's own processing time (`rK:proc`).
 */
export function requestSamples(envelopes: Envelope[]): RequestSamples {
  if (envelopes.length < 2) {
    throw new RouteDumpError(
      `route dump has ${envelopes.length} envelope(s); at least 2 are needed (f:send needs consecutive requests)`
    )
  }
  const width = envelopes[0].length
  if (width < 2) throw new RouteDumpError('route envelopes must name the frontend and a router')
  const bad = envelopes.findIndex(e => e.length !== width)
  if (bad >= 0) {
    throw new RouteDumpError(
      `envelope ${bad + 1} has ${envelopes[bad].length} routes, the first has ${width}: mixed topologies in one dump`
    )
  }
  const routers = width - 1
  const hops = hopNames(routers)
  const procs = procNames(routers)
  const metrics = metricNames(routers)
  const samples: Record<string, number[]> = Object.fromEntries(metrics.map(m => [m, []]))

  // Consecutive requests in the order the frontend sent them, and responses in the order it
  // answered them: with replicas (cases 3/4) the dump's receive order differs from send order.
  samples['f:send'] = gaps(envelopes.map(e => e[0].start))
  samples['f:recv'] = gaps(envelopes.map(e => e[0].end))
  envelopes.forEach(e => {
    const f = e[0]
    samples.roundtrip.push(clamp(f.end - f.start))
    for (let k = 0; k <= routers; k++) {
      const from = k === 0 ? f.start : e[k].end
      const to = k === routers ? f.end : e[k + 1].start
      samples[hops[k]].push(clamp(to - from))
    }
    for (let k = 1; k <= routers; k++) samples[procs[k - 1]].push(clamp(e[k].end - e[k].start))
  })
  return { metrics, samples }
}
