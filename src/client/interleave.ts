/** The two builds of a paired run: the base (A) and the head (B). */
export type Side = 'base' | 'head'

/**
 * How a paired run alternates the sides: whole runs one after the other (`blocks`, ABBA), or both
 * sides at once with their requests alternating on one clock (`requests`, paced profiles only).
 */
export type Interleave = 'blocks' | 'requests'

export interface Block {
  /** The pair this block belongs to, from 0. */
  pair: number
  side: Side
}

/**
 * The order of a paired run's blocks: pairs alternate which side goes first (AB BA AB BA …), so
 * every side sits as often early as late. A drift that is linear in time then adds +d to one
 * pair's difference and −d to the next: with an even number of pairs it cancels exactly from the
 * mean difference, with an odd number all but one pair's share (d / pairs) cancels. Adjacent
 * blocks of one pair share the machine's state as closely as two blocks can.
 */
export function abbaOrder(pairs: number): Block[] {
  if (!Number.isInteger(pairs) || pairs < 1) {
    throw new RangeError(`a paired run needs a whole number of pairs, at least 1 (got ${pairs})`)
  }
  return Array.from({ length: pairs }, (_, pair): Block[] =>
    pair % 2 === 0
      ? [
          { pair, side: 'base' },
          { pair, side: 'head' }
        ]
      : [
          { pair, side: 'head' },
          { pair, side: 'base' }
        ]
  ).flat()
}

/** The order as letters, A for the base and B for the head: `ABBAAB`. */
export const orderLetters = (blocks: readonly Block[]): string =>
  blocks.map(b => (b.side === 'base' ? 'A' : 'B')).join('')

/**
 * The pairs of a run interleaved by requests: both sides run every pair at once, the base's
 * requests half a period ahead, so every pair is AB.
 */
export function interleavedOrder(pairs: number): Block[] {
  return abbaOrder(pairs).map(({ pair }, k) => ({ pair, side: k % 2 === 0 ? 'base' : 'head' }))
}

/**
 * How a paired run's order reads in a log line or a report: its pattern, without a count (an
 * adaptive run adds pairs that continue it).
 */
export const orderText = (blocks: readonly Block[], interleave: Interleave): string =>
  interleave === 'requests'
    ? 'pairs of runs, both sides at once with their requests alternating (ABAB…)'
    : `pairs of runs in the order \`${orderLetters(blocks)}…\``
