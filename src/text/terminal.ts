/**
 * Messages quote untrusted bytes (a damaged history file, a topology file, git's output): every
 * control character except newline and tab is shown as a visible escape (`\x1b`, `\u009b`), and
 * so are the bidirectional overrides that reorder what a reader sees. An ANSI escape in a file
 * therefore reaches the terminal or the Actions log as text, never as a command.
 */
export function terminalSafe(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    c =>
      c === '\r\n'
        ? '\n'
        : c.charCodeAt(0) < 0x100
          ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
}

/**
 * The Actions runner reads a stdout line starting with `::` (after blanks, which it trims) as a
 * workflow command (add-mask, stop-commands, error): quoted text must not issue one, so a zero-width
 * space separates such colons.
 */
export const actionsSafe = (text: string): string =>
  terminalSafe(text).replace(/^(\s*)::/gm, '$1:\u200b:')
