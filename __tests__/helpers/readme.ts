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

/**
 * README's Quick start for a repository with its own services: its steps, in the GNES
 * repository's workflow ("everything else is as above").
 */
export function servicesWorkflow(): string {
  const gnes = quickStartWorkflow()
  const steps = quickStartWorkflow('### A repository with its own services')
  const at = gnes.indexOf('    steps:\n')
  if (at < 0) throw new Error("README's Quick start workflow has no steps")
  return `${gnes.slice(0, at)}    steps:\n${steps}`
}
