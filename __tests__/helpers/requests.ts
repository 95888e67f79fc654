import normal from '@stdlib/random-base-normal'
import { studentTQuantile } from '../../src/inference/student-t'

/**
 * Synthetic per-request samples of a GNES chain at minimal load, where the truth is known: each
 * request's hops and services' own times are drawn, `path` is their sum and `latency` adds the
 * client's side. A run's drift scales every part of it alike (what pairing cancels).
 */

export const PARTS: Readonly<Record<string, readonly [number, number]>> = {
  'f->r1:send': [0.002, 0.0004],
  'r1:proc': [0.001, 0.0002],
  'r1->r2:send': [0.002, 0.0004],
  'r2:proc': [0.02, 0.001]
}

/** What a head changes: seconds added to a part, on a share of the requests (1 = all). */
export interface Slowdown {
  part: string
  seconds: number
  share: number
}

/** Φ⁻¹, as Student's t with (practically) infinite degrees of freedom. */
const normalQuantile = (p: number): number => studentTQuantile(p, 1e9)

export type Draw = (mu: number, sigma: number) => number

export const seeded = (seed: number): Draw => normal.factory({ seed })

/** One run of `requests` requests, each part drawn, the slowdowns applied, and the sums. */
export function runSamples(
  draw: Draw,
  requests: number,
  drift: number,
  slow: readonly Slowdown[] = [],
  clientSeconds = 0
): Record<string, number[]> {
  const run: Record<string, number[]> = Object.fromEntries(
    [...Object.keys(PARTS), 'path', 'c->f:send', 'latency'].map(m => [m, []])
  )
  for (let j = 0; j < requests; j++) {
    let path = 0
    for (const [part, [mu, sigma]] of Object.entries(PARTS)) {
      // A request is slowed when its own N(0, 1) draw falls below the share's quantile.
      const z = draw(0, 1)
      const added = slow
        .filter(s => s.part === part && (s.share >= 1 || z < normalQuantile(s.share)))
        .reduce((a, s) => a + s.seconds, 0)
      const value = Math.max(0, draw(mu, sigma) * drift + added)
      run[part].push(value)
      path += value
    }
    const client = Math.max(0, draw(0.008, 0.001) * drift + clientSeconds)
    run.path.push(path)
    run['c->f:send'].push(client)
    run.latency.push(path + client)
  }
  return run
}

/** n pairs of runs, base and head sharing each pair's drift. */
export function pairs(
  draw: Draw,
  n: number,
  requests: number,
  head: { slow?: readonly Slowdown[]; clientSeconds?: number } = {}
): { base: Record<string, number[]>[]; head: Record<string, number[]>[] } {
  const base: Record<string, number[]>[] = []
  const heads: Record<string, number[]>[] = []
  for (let i = 0; i < n; i++) {
    const drift = Math.exp(draw(0, 0.05))
    base.push(runSamples(draw, requests, drift))
    heads.push(runSamples(draw, requests, drift, head.slow, head.clientSeconds))
  }
  return { base, head: heads }
}
