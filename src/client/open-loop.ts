/**
 * The open-loop schedule every load driver shares: request i is due at t0 + i/rate and is handed
 * to the driver's `send` then, however many earlier requests are still in flight.
 */
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'

/** Epoch milliseconds from the monotonic clock: sub-millisecond, never steps back. */
export const nowMs = (): number => performance.timeOrigin + performance.now()

/**
 * Ticks the schedule from a worker thread. Node's timers resolve whole milliseconds and fire up to
 * one late; a worker sleeping in Atomics.wait wakes within some 0.1 ms and costs no CPU while it
 * waits, unlike spinning on the event loop. Measured with bench/http-driver.ts at 100–1000 req/s:
 * c:lag p50 0.2–0.5 ms against 0.5–0.8 ms with setTimeout, for about 0.1 ms more CPU per request
 * (one more thread wake-up, which costs that much on the project's 2-core VM).
 * It only wakes the main thread, which sends whatever is due when it runs: a stalled event loop
 * catches up at once, and `sent` shows it.
 */
const TICKER = `
const { parentPort } = require('node:worker_threads')
const cell = new Int32Array(new SharedArrayBuffer(4))
const now = () => { const [s, ns] = process.hrtime(); return s * 1e3 + ns / 1e6 }
parentPort.once('message', ({ start, rate, count }) => {
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / rate - now()
    if (wait > 0) Atomics.wait(cell, 0, 0, wait)
    parentPort.postMessage(i)
  }
})
`

/** The monotonic clock the ticker reads (process.hrtime), in milliseconds. */
const hrMs = (): number => {
  const [s, ns] = process.hrtime()
  return s * 1e3 + ns / 1e6
}

/** Throws for a rate or count no schedule can have. */
export function checkSchedule(rate: number | null, count: number): void {
  if (rate !== null && !(rate > 0 && Number.isFinite(rate))) {
    throw new Error(`bad rate ${rate}: must be > 0`)
  }
  if (!Number.isInteger(count) || count < 0) throw new Error(`bad request count ${count}`)
}

/**
 * Calls `send(due)` for `count` requests on the schedule (due in epoch milliseconds), starting at
 * `startAtMs` (so two drivers can share one clock) or once the ticker runs. `send` must never
 * reject; its results come back in request order.
 */
export async function openLoop<R>(
  rate: number,
  count: number,
  send: (dueMs: number) => Promise<R>,
  startAtMs?: number
): Promise<R[]> {
  checkSchedule(rate, count)
  if (count === 0) return []
  const pending: Promise<R>[] = []
  const worker = new Worker(TICKER, { eval: true })
  try {
    // The schedule starts once the ticker runs, or its start-up (tens of ms) would be lag.
    await once(worker, 'online')
    const now = nowMs()
    const t0 = startAtMs ?? now
    worker.postMessage({ start: hrMs() + (t0 - now), rate, count })
    await new Promise<void>((resolve, reject) => {
      worker.on('error', reject)
      // Tick i says request i is due; any later one already due goes too (a stall's backlog).
      worker.on('message', (tick: number) => {
        const now = nowMs()
        while (pending.length < count) {
          const due = t0 + (pending.length * 1000) / rate
          if (pending.length > tick && due > now) break
          pending.push(send(due))
        }
        if (pending.length === count) resolve()
      })
    })
  } finally {
    await worker.terminate()
  }
  return Promise.all(pending)
}
