import * as hdr from 'hdr-histogram-js'

/** Latency percentiles, seconds, read from a histogram of microseconds. */
export interface LatencyPercentiles {
  n: number
  p50: number
  p90: number
  p99: number
  max: number
  mean: number
}

const build = () =>
  hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 3
  })

/**
 * HdrHistogram's percentile distribution text (`.hgrm`, as HistogramLogProcessor and the
 * HdrHistogram plotter read it), in milliseconds: of per-request samples in seconds, or of a
 * histogram this module encoded.
 */
export function percentileDistribution(values: readonly number[] | string): string {
  const h = typeof values === 'string' ? hdr.decodeFromCompressedBase64(values) : build()
  try {
    if (typeof values !== 'string') {
      for (const s of values) h.recordValue(Math.max(1, Math.round(s * 1e6)))
    }
    // Recorded in microseconds: a ratio of 1000 prints milliseconds.
    return h.outputPercentileDistribution(5, 1000)
  } finally {
    h.destroy()
  }
}

/**
 * A sweep step can carry thousands of requests, so its latency distribution is kept as an
 * HdrHistogram (3 significant digits, 1 µs to 1 h) rather than a growing array; the compressed
 * encoding is what results and history store, and any tool that reads HdrHistogram logs decodes it.
 */
export function latencyHistogram(seconds: readonly number[]): {
  percentiles: LatencyPercentiles
  encoded: string
} {
  const h = build()
  try {
    for (const s of seconds) h.recordValue(Math.max(1, Math.round(s * 1e6)))
    const at = (p: number): number => (h.totalCount ? h.getValueAtPercentile(p) / 1e6 : 0)
    return {
      percentiles: {
        n: h.totalCount,
        p50: at(50),
        p90: at(90),
        p99: at(99),
        max: h.totalCount ? h.maxValue / 1e6 : 0,
        mean: h.totalCount ? h.mean / 1e6 : 0
      },
      encoded: hdr.encodeIntoCompressedBase64(h)
    }
  } finally {
    h.destroy()
  }
}
