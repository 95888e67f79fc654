import * as fs from 'node:fs'
import * as path from 'node:path'

/**
 * The project's root, holding `topologies/`, `templates/` and `python/`. Found by walking up from
 * this module, because it runs both from `src/<stage>/` (tests) and bundled from `dist/`.
 */
function packageRoot(): string {
  let dir = __dirname
  while (!fs.existsSync(path.join(dir, 'action.yml'))) {
    const up = path.dirname(dir)
    if (up === dir) throw new Error(`cannot find the project root above ${__dirname}`)
    dir = up
  }
  return dir
}

export const assetPath = (...parts: string[]): string => path.join(packageRoot(), ...parts)
