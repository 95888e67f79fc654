import { inlineCode } from '../text/escape'
import { fmtSeconds } from '../text/duration'
import { fmtMiB } from '../text/memory'
import { CPU_TOTAL, isCpuMetric, isMemMetric } from '../metrics/usage'

/** A metric's figure: a peak memory (`mem:`) in MiB, anything else (CPU per request too) a time. */
export const fmtFigure = (metric: string, v: number): string =>
  isMemMetric(metric) ? fmtMiB(v) : fmtSeconds(v)

/** A metric key in words: `r2:proc` is router 2's own time, `c->f:send` the client's transfer. */
function metricWords(metric: string): string | null {
  if (metric === CPU_TOTAL) return 'CPU per request, all services'
  if (isCpuMetric(metric)) return 'CPU per request'
  if (isMemMetric(metric)) return 'peak memory'
  const proc = /^r(\d+):proc$/.exec(metric)
  if (proc) return `router ${proc[1]}'s own time`
  const hop = /^(c|f|r\d+)->(f|r\d+):send$/.exec(metric)
  if (!hop) return null
  const end = (e: string): string =>
    e === 'c' ? 'client' : e === 'f' ? 'frontend' : `router ${e.slice(1)}`
  return `${end(hop[1])} → ${end(hop[2])}`
}

/** A metric as code, with its words when it has some; the key is escaped (a hop name is untrusted). */
export const named = (metric: string): string => {
  const words = metricWords(metric)
  return words ? `${inlineCode(metric)} (${words})` : inlineCode(metric)
}
