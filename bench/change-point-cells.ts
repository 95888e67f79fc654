import type { SeriesShape } from './synthetic-series'

/**
 * The rows of the change-point bench: clean series (a step of 3–20 %, three steps of
 * alternating sign, or two single-point spikes and no step) at 3, 10 and 20 % noise in 30, 100
 * and 500 entries, and the same with spells, away from the step or just before it.
 */

export const KINDS = ['clean', 'spell elsewhere', 'spell just before the step'] as const
export type Kind = (typeof KINDS)[number]

export interface Cell {
  name: string
  shape: SeriesShape
  kind: Kind
}

const SIZES = [0.03, 0.05, 0.1, 0.2]

/** Spells of 4 entries at 3× the level, as case 1's legacy history has (at ~13–20×). */
const spell = (at: number) => ({ at, length: 4, factor: 3 })

function cleanCells(cv: number, length: number): Cell[] {
  const head = `cv ${cv * 100} %, ${length} entries`
  const spikes = [Math.floor(length / 3), Math.floor((2 * length) / 3)]
  const out: Cell[] = [
    { name: `${head}, no step, 2 spikes`, shape: { length, cv, steps: [], spikes }, kind: 'clean' }
  ]
  for (const size of SIZES) {
    const at = Math.floor((2 * length) / 3)
    out.push({
      name: `${head}, 1 step of ${size * 100} %`,
      shape: { length, cv, steps: [{ at, size }] },
      kind: 'clean'
    })
    if (length < 100) continue
    const steps = [1, 2, 3].map(k => ({
      at: Math.floor((k * length) / 4),
      size: k % 2 ? size : -size
    }))
    out.push({
      name: `${head}, 3 steps of ±${size * 100} %`,
      shape: { length, cv, steps },
      kind: 'clean'
    })
  }
  return out
}

function spellCells(cv: number, length: number): Cell[] {
  const head = `cv ${cv * 100} %, ${length} entries`
  const third = Math.floor(length / 3)
  const at = Math.floor((2 * length) / 3)
  const out: Cell[] = [
    {
      name: `${head}, no step, 2 spells`,
      shape: { length, cv, steps: [], spells: [spell(third), spell(at)] },
      kind: 'spell elsewhere'
    }
  ]
  for (const size of SIZES)
    out.push(
      {
        name: `${head}, 1 step of ${size * 100} %, a spell before`,
        shape: { length, cv, steps: [{ at, size }], spells: [spell(third)] },
        kind: 'spell elsewhere'
      },
      {
        name: `${head}, 1 step of ${size * 100} % just after a spell`,
        shape: { length, cv, steps: [{ at, size }], spells: [spell(at - 4)] },
        kind: 'spell just before the step'
      }
    )
  return out
}

export function cells(): Cell[] {
  const out: Cell[] = []
  for (const make of [cleanCells, spellCells])
    for (const cv of [0.03, 0.1, 0.2])
      for (const length of [30, 100, 500]) out.push(...make(cv, length))
  return out
}
