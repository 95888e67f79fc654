import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'

/** A fresh directory under the system's temporary one, for a test's files. */
export const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'glb-test-'))
