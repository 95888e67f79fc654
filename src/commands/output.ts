import { terminalSafe } from '../text/terminal'

/** The CLI's only way to the terminal: text quoted from files or git passes through terminalSafe. */
export const print = (text: string): void => {
  process.stdout.write(`${terminalSafe(text)}\n`)
}

export const printError = (text: string): void => {
  process.stderr.write(`${terminalSafe(text)}\n`)
}
