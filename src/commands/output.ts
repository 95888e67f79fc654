import { terminalSafe } from '../text/terminal'

/** The CLI's way to the terminal: text quoted from files or git passes through terminalSafe. */
export const print = (text: string): void => console.log(terminalSafe(text))

export const printError = (text: string): void => console.error(terminalSafe(text))
