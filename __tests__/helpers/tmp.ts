import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'

/** The directories this test file made; each file loads its own copy of this module. */
const made: string[] = []

const removeMade = () => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
}

// Under jest, removed once the file's tests and the afterAll hooks of its describe blocks are done
// (the services writing into them are stopped by then), so thousands of runs leave nothing under
// the temporary directory. A script using the helpers (scripts/twin-examples.ts, bench/bisect.ts)
// has no afterAll: its directories go as its process exits.
if (typeof afterAll === 'function') afterAll(removeMade)
else process.once('exit', removeMade)

/** A fresh directory under the system's temporary one, for a test's files; removed after the file. */
export const tmp = (prefix = 'glb-test-'): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(dir)
  return dir
}
