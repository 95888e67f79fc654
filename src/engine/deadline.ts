/**
 * Rejects with `onTimeout()` when `promise` has not settled after `ms`. The timer is cleared on
 * settle and never keeps the process alive.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
    timer.unref()
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}

/** `withDeadline` with the usual message: "<what> timed out after <s> s". */
export const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  withDeadline(promise, ms, () => new Error(`${what} timed out after ${ms / 1000} s`))
