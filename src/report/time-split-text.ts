import type { TimeSplit } from '../judge/sequential'
import { fmtDuration } from '../text/duration'

/** Where a paired case's time went, in words: `start 24 s, warm-up 1 min 10 s, measuring …`. */
export const timeSplitText = (s: TimeSplit): string =>
  `start ${fmtDuration(s.startSec)}, warm-up ${fmtDuration(s.warmupSec)}, ` +
  `measuring ${fmtDuration(s.measureSec)}, teardown ${fmtDuration(s.teardownSec)}`
