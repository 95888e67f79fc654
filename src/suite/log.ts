/** Progress output: log groups on Actions, plain lines on a terminal. */
export interface Log {
  info(message: string): void
  warn(message: string): void
  group<T>(name: string, work: () => Promise<T>): Promise<T>
}

export const consoleLog: Log = {
  info: message => console.log(message),
  warn: message => console.warn(`warning: ${message}`),
  async group(name, work) {
    console.log(`\n== ${name}`)
    return work()
  }
}
