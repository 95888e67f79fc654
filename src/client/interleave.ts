/** The two builds of a paired run: the base (A) and the head (B). */
export type Side = 'base' | 'head'

/**
 * How a paired run alternates the sides: whole runs one after the other (`blocks`), or both sides
 * at once with their requests alternating on one clock (`requests`, paced profiles only). In both
 * the pairs take the order of `abbaOrder`.
 */
export type Interleave = 'blocks' | 'requests'

export interface Block {
  /** The pair this block belongs to, from 0. */
  pair: number
  side: Side
}

/**
 * The side that goes first in pair `pair` (from 0): the base in even pairs, the head in odd ones.
 * It runs its block first (`blocks`), its requests lead the other side's by half a period
 * (`requests`), and, where each pair is deployed afresh, its start is asked for first (both sides
 * start at once). Whatever a fixed order favours (the first block's machine state, the first
 * deployment's placement, the leading stream) then favours each side in every other pair: it
 * cancels from the mean of an even number of pairs and shows as spread between them.
 */
export const pairLead = (pair: number): Side => (pair % 2 === 0 ? 'base' : 'head')

/** Both sides of pair `pair`, the one that goes first first. */
export const pairSides = (pair: number): [Side, Side] =>
  pairLead(pair) === 'base' ? ['base', 'head'] : ['head', 'base']

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
    pairSides(pair).map(side => ({ pair, side }))
  ).flat()
}

/** The order as letters, A for the base and B for the head: `ABBAAB`. */
export const orderLetters = (blocks: readonly Block[]): string =>
  blocks.map(b => (b.side === 'base' ? 'A' : 'B')).join('')

/**
 * How a paired run's order reads in a log line or a report: its pattern, without a count (an
 * adaptive run adds pairs that continue it).
 */
export const orderText = (blocks: readonly Block[], interleave: Interleave): string =>
  interleave === 'requests'
    ? `pairs of runs, both sides at once with their requests alternating, the side half a period ahead alternating pair by pair (\`${orderLetters(blocks)}…\`)`
    : `pairs of runs in the order \`${orderLetters(blocks)}…\``
