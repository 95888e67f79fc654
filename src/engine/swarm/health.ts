import type Docker from 'dockerode'
import type { Healthcheck } from '../../topology/http-schema'
import { apiAtLeast } from './api-version'

/**
 * On Swarm the health check stays Docker's: Swarm reports a task running only once it is healthy
 * and fails it when it turns unhealthy, so the check keeps running for the task's whole life.
 */

const NS_PER_S = 1e9

/** Whether a daemon of this API version takes a health check's `StartInterval` (1.44, Docker 25). */
export const takesStartInterval = (apiVersion: string): boolean => apiAtLeast(apiVersion, [1, 44])

/** A health check in the Engine API's form (durations in nanoseconds). */
export const healthConfig = (h: Healthcheck, startInterval: boolean): Docker.HealthConfig => ({
  Test: h.test,
  Interval: Math.round(h.intervalSec * NS_PER_S),
  Timeout: Math.round(h.timeoutSec * NS_PER_S),
  Retries: h.retries,
  StartPeriod: Math.round(h.startPeriodSec * NS_PER_S),
  ...(startInterval ? { StartInterval: Math.round(h.startIntervalSec * NS_PER_S) } : {})
})
