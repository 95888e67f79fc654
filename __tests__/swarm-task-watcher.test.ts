import type Docker from 'dockerode'
import { LogTail } from '../src/engine/log-tail'
import { TaskSlot, TaskWatcher } from '../src/engine/swarm/tasks'

/**
 * The Swarm engine's task poll ends with its deployment. A deployment removed while one of its
 * services was still being created used to start a poll after the removal had stopped the watcher:
 * it ran forever and kept the test command's jest from exiting.
 */
describe('TaskWatcher', () => {
  const polls = { count: 0 }
  const docker = {
    listTasks: async () => {
      polls.count++
      return []
    }
  } as unknown as Docker

  test('a service watched after stop is not polled, and its slots end', async () => {
    const watcher = new TaskWatcher(docker)
    const first = new TaskSlot('a-0', new LogTail(null), 'img')
    watcher.watch('svc-a', [first])
    await new Promise(r => setTimeout(r, 600))
    expect(polls.count).toBeGreaterThan(0)
    watcher.stop()
    const late = new TaskSlot('b-0', new LogTail(null), 'img')
    watcher.watch('svc-b', [late])
    const after = polls.count
    await new Promise(r => setTimeout(r, 600))
    expect(polls.count).toBe(after)
    expect(late.output.writableEnded).toBe(true)
  })
})
