import * as fs from 'node:fs'
import * as path from 'node:path'

/**
 * The project's root: the nearest directory up holding action.yml, from the sources under jest as
 * from a bundle in build/ (scripts/run-ts.mjs), whose __dirname is another.
 */
export const PROJECT = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'action.yml'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`no action.yml above ${__dirname}`)
  }
})()
