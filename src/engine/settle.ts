/**
 * Runs `start` on every item at once and waits for all of them, failed or not, before it rejects
 * with the first failure: a teardown after it then finds everything that was created.
 */
export async function settleAll<T, R>(
  items: readonly T[],
  start: (item: T) => Promise<R>
): Promise<R[]> {
  const settled = await Promise.allSettled(items.map(start))
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failure) throw failure.reason
  return settled.map(s => (s as PromiseFulfilledResult<R>).value)
}
