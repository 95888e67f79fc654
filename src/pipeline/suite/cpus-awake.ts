import {
  CpuWakeUnavailable,
  holdCpusAwake,
  type CpuWakeOptions,
  type KeepCpusAwake
} from '../../engine/cpu-wake'
import type { Log } from '../../log'

/** What a suite holds while it runs; `held` is recorded in its result. */
export interface SuiteCpuWake {
  /** True only where the kernel took the request: a cpuidle driver reads it, and it reads 0. */
  readonly held: boolean
  release(): Promise<void>
}

/** Nothing held: `keep-cpus-awake: false`, a hold that was refused, or one not taken yet. */
export const NOT_HELD: SuiteCpuWake = { held: false, release: async () => undefined }

/**
 * `keep-cpus-awake`: `auto` holds every CPU awake where this runner allows it (root, or `sudo -n`)
 * and its kernel takes it (a cpuidle driver), and says so where not; `true` makes that a failure, before anything starts; `false`
 * leaves the host as it is.
 */
export async function keepCpusAwake(
  setting: KeepCpusAwake,
  log: Log,
  options: CpuWakeOptions = {}
): Promise<SuiteCpuWake> {
  if (setting === 'false') return NOT_HELD
  try {
    const hold = await holdCpusAwake(options)
    log.info(
      `CPUs held awake for the suite (PM QoS wake-up latency 0, read by cpuidle driver ${hold.driver}${hold.via === 'sudo' ? ', through sudo' : ''})`
    )
    return { held: true, release: () => hold.release() }
  } catch (err) {
    if (!(err instanceof CpuWakeUnavailable)) throw err
    const why = `keep-cpus-awake: the CPUs cannot be held awake: ${err.message}`
    if (setting === 'true')
      throw new Error(`${why}; set keep-cpus-awake to auto or false to run anyway`)
    log.warn(
      `${why}. Latencies vary more between runs on a virtual machine whose idle CPUs halt (docs/load.md, "Idle CPUs").`
    )
    return NOT_HELD
  }
}
