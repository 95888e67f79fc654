import type { Waiter } from './types'

/**
 * Ready once its health check passes, as its platform runs it: a generic service's
 * `ready: { healthcheck }`.
 */
export const healthCheck: Waiter<'healthcheck'> = {
  async wait(_strategy, at) {
    if (!at.started.healthy) throw new Error(`the ${at.engine} engine has no health checks`)
    return at.started.healthy()
  }
}
