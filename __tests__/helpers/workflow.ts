/** The event payload of a pull request into main: its number, title, base and head commits. */
export const pullRequestEvent = (number: number, title: string, base: string, head: string) => ({
  pull_request: { number, title, base: { ref: 'main', sha: base }, head: { sha: head } }
})
