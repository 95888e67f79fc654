import { durationSec } from './duration'
import { Problem } from './problem'
import type { Obj } from './obj'

/** Docker's health check as the native `ready.healthcheck` holds it. */
export interface NativeHealthcheck {
  test: string[]
  intervalSec: number
  timeoutSec: number
  retries: number
  startPeriodSec: number
  startIntervalSec: number
}

/** Docker's defaults where the file leaves a field out. */
const DEFAULTS = {
  interval: '30s',
  timeout: '30s',
  start_period: '0s',
  start_interval: '5s',
  retries: 3
}

/** A duration in seconds; 0 means Docker's default, as in Docker. */
const seconds = (v: unknown, key: keyof typeof DEFAULTS): number => {
  const s = durationSec(String(v))
  if (Number.isNaN(s)) throw new Problem(key, `'${String(v)}' is not a duration such as 1m30s`)
  return s === 0 ? durationSec(String(DEFAULTS[key])) : s
}

/**
 * A service's `healthcheck` as the native readiness probe, or null when there is none (no key,
 * `disable: true`, or a test of NONE). Throws why it cannot be honoured.
 */
export function nativeHealthcheck(hc: Obj | undefined): NativeHealthcheck | null {
  if (!hc || hc.disable === true || hc.disable === 'true') return null
  const test = typeof hc.test === 'string' ? ['CMD-SHELL', hc.test] : (hc.test as string[])
  if (!test) {
    throw new Problem(
      'test',
      "missing: without it Docker runs the image's own check, which the benchmark cannot see"
    )
  }
  if (test[0] === 'NONE') return null
  if ((test[0] !== 'CMD' && test[0] !== 'CMD-SHELL') || test.length < 2) {
    throw new Problem('test', "a string, or a list of 'CMD' or 'CMD-SHELL' and a command")
  }
  const retries = Number(hc.retries ?? DEFAULTS.retries)
  if (!Number.isInteger(retries) || retries < 1) {
    throw new Problem('retries', `'${String(hc.retries)}' is not a whole number of at least 1`)
  }
  return {
    test,
    intervalSec: seconds(hc.interval ?? DEFAULTS.interval, 'interval'),
    timeoutSec: seconds(hc.timeout ?? DEFAULTS.timeout, 'timeout'),
    retries,
    startPeriodSec: seconds(hc.start_period ?? DEFAULTS.start_period, 'start_period'),
    startIntervalSec: seconds(hc.start_interval ?? DEFAULTS.start_interval, 'start_interval')
  }
}
