/**
 * Two projects. `shared` suites are pure or start only in-process servers: they run on every core.
 * `alone` suites start services (real GNES, Docker, act) or time a schedule: scripts/test.sh runs
 * them one at a time after the others, so no figure they check is another suite's noise. A suite is
 * `alone` when it uses a helper that starts services, or says `@runs-alone` in its header; one
 * that uses such a helper without starting anything says `@shares-cores`.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const ALONE =
  /describeDocker|RunnerTwin|runSuite|runPairedSuite|create(Local|Docker|Swarm)Engine|gnesEdits|gnesRepository|buildEntry|@runs-alone/
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '__tests__')
const alone = fs
  .readdirSync(dir)
  .filter(f => f.endsWith('.test.ts'))
  .filter(f => {
    const text = fs.readFileSync(path.join(dir, f), 'utf8')
    return ALONE.test(text) && !text.includes('@shares-cores')
  })
  .map(f => `<rootDir>/__tests__/${f}`)

const base = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] }
}

export default {
  testTimeout: 600000,
  verbose: true,
  projects: [
    { ...base, displayName: 'shared', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: alone },
    { ...base, displayName: 'alone', testMatch: alone }
  ]
}
