/**
 * Where a paired case's time went: the split's arithmetic and its words (pure; no services run).
 */
import { addTime, loadTime, NO_TIME, scheduledWarmup } from '../src/pipeline/suite/time-split'
import { timeSplitText } from '../src/report/time-split-text'

describe("a paired case's time split", () => {
  test('adds each part to its own, leaving the others as they were', () => {
    const started = addTime(NO_TIME, { startSec: 1.5 })
    const split = addTime(addTime(started, { warmupSec: 2.25, measureSec: 4 }), {
      teardownSec: 0.5,
      startSec: 1
    })
    expect(split).toEqual({ startSec: 2.5, warmupSec: 2.25, measureSec: 4, teardownSec: 0.5 })
    expect(NO_TIME).toEqual({ startSec: 0, warmupSec: 0, measureSec: 0, teardownSec: 0 })
  })

  test('takes the warm-up on schedule from the call until its first measured request was due', () => {
    const began = Date.parse('2026-12-08T10:00:00.000Z')
    const at = (sec: number) => new Date(began + sec * 1000).toISOString()
    // A pair's two streams: the clients' 2 s start, 30 warm-up requests at 5/s, then the run; the
    // side behind is due half a period later. The lead's first measured request ends the warm-up.
    const runs = [
      { warmup: true, startedAt: at(2) },
      { warmup: false, startedAt: at(8) },
      { warmup: true, startedAt: at(2.1) },
      { warmup: false, startedAt: at(8.1) }
    ]
    expect(scheduledWarmup(began, runs)).toBeCloseTo(8, 9)
    // A block's client starts when it is ready: whatever that took is warm-up too.
    expect(scheduledWarmup(began, [runs[0], { warmup: false, startedAt: at(0.7) }])).toBe(0.7)
    expect(scheduledWarmup(began, [runs[0]])).toBeNull()
  })

  test("splits a stream's wall time at its warm-up on schedule, the rest measuring", () => {
    // 2 s for the clients' start and 30 requests at 5/s: 8 s of a 21.5 s call.
    expect(loadTime(21.5, 2 + 30 / 5)).toEqual({ warmupSec: 8, measureSec: 13.5 })
    // The two add up to the call, whatever it took.
    for (const wall of [0.3, 8, 100]) {
      const { warmupSec, measureSec } = loadTime(wall, 8)
      expect(warmupSec + measureSec).toBeCloseTo(wall, 12)
    }
  })

  test('never gives the warm-up more than the call took, nor less than nothing', () => {
    expect(loadTime(1.2, 8)).toEqual({ warmupSec: 1.2, measureSec: 0 })
    expect(loadTime(3, -1)).toEqual({ warmupSec: 0, measureSec: 3 })
  })

  test('counts a call with no schedule (a burst) whole as measuring', () => {
    expect(loadTime(12.5, null)).toEqual({ warmupSec: 0, measureSec: 12.5 })
  })

  test('says each part as a wall time for people', () => {
    expect(
      timeSplitText({ startSec: 24.4, warmupSec: 70, measureSec: 190.2, teardownSec: 27.6 })
    ).toBe('start 24 s, warm-up 70 s, measuring 3 min 10 s, teardown 28 s')
  })
})
