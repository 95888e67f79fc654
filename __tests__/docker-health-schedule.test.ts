/**
 * The health check the Docker engine runs itself (issue 54): when each check begins and what the
 * checks' outcomes decide, as Docker decides them; the argv a check runs; and on Swarm, which
 * daemons take a start interval. Pure, no Docker.
 */
import { checkArgv } from '../src/engine/docker/health'
import { healthOf, nextCheckSec, type CheckRun } from '../src/engine/docker/health-schedule'
import { takesStartInterval } from '../src/engine/swarm/health'
import type { Healthcheck } from '../src/topology/http-schema'

const check: Healthcheck = {
  test: ['CMD', 'true'],
  intervalSec: 30,
  timeoutSec: 5,
  retries: 3,
  startPeriodSec: 20,
  startIntervalSec: 1
}

/** When the first `count` checks begin, each taking `tookSec`. */
function startTimes(h: Healthcheck, count: number, tookSec: number): number[] {
  const times: number[] = []
  let endSec: number | null = null
  for (let k = 0; k < count; k++) {
    const start = nextCheckSec(h, endSec)
    times.push(start)
    endSec = start + tookSec
  }
  return times
}

/** Runs beginning at `startSec`, each with its exit code. */
const runs = (...checks: [number, number | null][]): CheckRun[] =>
  checks.map(([startSec, exitCode]) => ({ startSec, exitCode, output: '' }))

describe('when the checks begin', () => {
  test('at once, every start interval within the start period, then every interval', () => {
    const times = startTimes(check, 23, 0)
    expect(times.slice(0, 4)).toEqual([0, 1, 2, 3])
    // The check ending at 19 s is within the start period, the one at 20 s is not.
    expect(times.slice(19)).toEqual([19, 20, 50, 80])
  })

  test('each wait counts from the end of the check before it', () => {
    expect(startTimes(check, 4, 0.5)).toEqual([0, 1.5, 3, 4.5])
    // A check that ends once the start period is over is followed after the interval.
    expect(startTimes({ ...check, startPeriodSec: 2 }, 4, 0.5)).toEqual([0, 1.5, 32, 62.5])
  })

  test('without a start period, the interval from the first check on', () => {
    expect(startTimes({ ...check, startPeriodSec: 0 }, 3, 0)).toEqual([0, 30, 60])
  })
})

describe('what the outcomes decide', () => {
  test('no check yet, or failures within the start period: still starting', () => {
    expect(healthOf(check, [])).toBe('starting')
    const early = runs(...Array.from({ length: 19 }, (_, k): [number, number] => [k, 1]))
    expect(healthOf(check, early)).toBe('starting')
  })

  test('a check that exits 0 makes it healthy, whatever failed before', () => {
    expect(healthOf(check, runs([0, 0]))).toBe('healthy')
    expect(healthOf(check, runs([0, 1], [1, 1], [20, 1], [50, 1], [80, 0]))).toBe('healthy')
  })

  test('retries failures in a row past the start period make it unhealthy', () => {
    expect(healthOf(check, runs([19, 1], [20, 1], [50, 1]))).toBe('starting')
    expect(healthOf(check, runs([19, 1], [20, 1], [50, 1], [80, 1]))).toBe('unhealthy')
    // Any non-zero exit fails; a timed-out check (no exit code) too.
    expect(healthOf(check, runs([20, 2], [50, -1], [80, null]))).toBe('unhealthy')
  })

  test('a success ends the streak; once healthy, failures in the start period count', () => {
    expect(healthOf(check, runs([20, 1], [50, 1], [80, 0], [110, 1], [140, 1]))).toBe('healthy')
    expect(healthOf(check, runs([0, 0], [1, 1], [2, 1], [3, 1]))).toBe('unhealthy')
    expect(healthOf({ ...check, retries: 1 }, runs([20, 1]))).toBe('unhealthy')
  })
})

test('a check runs its argv as written, CMD-SHELL through /bin/sh -c', () => {
  expect(checkArgv(['CMD', 'pg_isready', '-U', 'app'])).toEqual(['pg_isready', '-U', 'app'])
  expect(checkArgv(['CMD-SHELL', 'curl -f localhost || exit 1'])).toEqual([
    '/bin/sh',
    '-c',
    'curl -f localhost || exit 1'
  ])
})

test('Swarm: daemons of API 1.44 and later take a start interval', () => {
  expect(['1.41', '1.43', '1.9', '0.99', ''].map(takesStartInterval)).toEqual([
    false,
    false,
    false,
    false,
    false
  ])
  expect(['1.44', '1.47', '1.100', '2.0'].map(takesStartInterval)).toEqual([true, true, true, true])
})
