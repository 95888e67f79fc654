import { reap } from './engine/docker/reaper'

// dist/reaper.js <owner pid> <run id>: started by engine/docker/reaper.ts, never by hand.
const [owner, runId] = process.argv.slice(2)
if (!/^\d+$/.test(owner ?? '') || !runId) {
  console.error('usage: reaper.js <owner pid> <run id>')
  process.exit(2)
}
reap(Number(owner), runId).then(
  () => process.exit(0),
  () => process.exit(1)
)
