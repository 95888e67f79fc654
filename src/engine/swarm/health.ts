import type Docker from 'dockerode'
import type { Healthcheck } from '../../topology/http-schema'

/**
 * On Swarm the health check stays Docker's: Swarm reports a task running only once it is healthy
 * and fails it when it turns unhealthy, so the check keeps running for the task's whole life.
 */

const NS_PER_S = 1e9
/** The Engine API version that added `StartInterval` (Docker 25). */
const START_INTERVAL_API = [1, 44]

/** Whether a daemon of this API version (`1.44`) takes a health check's `StartInterval`. */
export function takesStartInterval(apiVersion: string): boolean {
  const [major, minor] = apiVersion.split('.').map(Number)
  const [wantMajor, wantMinor] = START_INTERVAL_API
  return major > wantMajor || (major === wantMajor && minor >= wantMinor)
}

/** A health check in the Engine API's form (durations in nanoseconds). */
export const healthConfig = (h: Healthcheck, startInterval: boolean): Docker.HealthConfig => ({
  Test: h.test,
  Interval: Math.round(h.intervalSec * NS_PER_S),
  Timeout: Math.round(h.timeoutSec * NS_PER_S),
  Retries: h.retries,
  StartPeriod: Math.round(h.startPeriodSec * NS_PER_S),
  ...(startInterval ? { StartInterval: Math.round(h.startIntervalSec * NS_PER_S) } : {})
})
