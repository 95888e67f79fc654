import { fmtDuration } from './text/duration'
import { terminalSafe } from './text/terminal'

/** Progress output: log groups on Actions, plain lines on a terminal. */
export interface Log {
  info(message: string): void
  warn(message: string): void
  group<T>(name: string, work: () => Promise<T>): Promise<T>
}

/**
 * Plain lines; messages quote files and service logs, so control characters are made visible.
 * Each group says when it started (time since this process began) and how long it took: a job of
 * several minutes with long quiet stretches shows where it is.
 */
export const consoleLog: Log = {
  info: message => console.log(terminalSafe(message)),
  warn: message => console.warn(terminalSafe(`warning: ${message}`)),
  async group(name, work) {
    console.log(terminalSafe(`\n== ${name} [${fmtDuration(process.uptime())} in]`))
    const t0 = Date.now()
    const result = await work()
    console.log(`   (${fmtDuration((Date.now() - t0) / 1000)})`)
    return result
  }
}

/** Warnings only: benchmarks print their own figures, which progress lines would bury. */
export const warningsOnly: Log = {
  info: () => undefined,
  warn: consoleLog.warn,
  group: (_name, work) => work()
}
