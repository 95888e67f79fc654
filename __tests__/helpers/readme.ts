import * as fs from 'node:fs'
import * as path from 'node:path'

/**
 * The workflow of README's Quick start under `heading` (the first ```yaml block after it), as a
 * reader copies it: the tests run this text, so README and what is tested cannot drift apart.
 */
export function quickStartWorkflow(heading = '### A GNES repository'): string {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8')
  const at = readme.indexOf(heading)
  if (at < 0) throw new Error(`README.md has no section '${heading}'`)
  const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(at))
  if (!block) throw new Error(`README.md's '${heading}' holds no yaml block`)
  return block[1]
}
