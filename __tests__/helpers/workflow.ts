/** The event payload of a pull request into main: its number, title, base and head commits. */
export const pullRequestEvent = (number: number, title: string, base: string, head: string) => ({
  pull_request: { number, title, base: { ref: 'main', sha: base }, head: { sha: head } }
})

/** Reads the `name<<delimiter` blocks @actions/core writes to GITHUB_OUTPUT and GITHUB_STATE. */
export function commandFileValues(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  const re = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm
  for (let m = re.exec(text); m; m = re.exec(text)) values[m[1]] = m[3]
  return values
}
