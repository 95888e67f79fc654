/**
 * Three projects. `shared` suites are pure or start only in-process servers: they run on every
 * core. `alone` suites start services (real GNES, Docker, act) or time a schedule: scripts/test.sh
 * runs them one at a time after the others, so no figure they check is another suite's noise. A
 * suite is `alone` when it uses a helper that starts services, or says `@runs-alone` in its header;
 * one that uses such a helper without starting anything says `@shares-cores`. `beside` suites start
 * services but check only what Docker, git or pip did (builds, lifecycle, cleanup, keys, commits),
 * no figure a neighbour could move: they say `@side-by-side` and run two at a time before the
 * `alone` pass.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const ALONE =
  /describeDocker|RunnerTwin|runSuite|runPairedSuite|create(Local|Docker|Swarm)Engine|gnesEdits|gnesRepository|buildEntry|@runs-alone/
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '__tests__')
const startsServices = fs
  .readdirSync(dir)
  .filter(f => f.endsWith('.test.ts'))
  .map(f => ({ f, text: fs.readFileSync(path.join(dir, f), 'utf8') }))
  .filter(({ text }) => ALONE.test(text) && !text.includes('@shares-cores'))
const paths = suites => suites.map(({ f }) => `<rootDir>/__tests__/${f}`)
const beside = paths(startsServices.filter(({ text }) => text.includes('@side-by-side')))
const alone = paths(startsServices.filter(({ text }) => !text.includes('@side-by-side')))

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
    {
      ...base,
      displayName: 'shared',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: [...beside, ...alone]
    },
    { ...base, displayName: 'beside', testMatch: beside },
    { ...base, displayName: 'alone', testMatch: alone }
  ]
}
