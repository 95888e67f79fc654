import type Docker from 'dockerode'
import type { LogTail } from '../log-tail'
import { pipeOutput } from '../docker/container'

/** Task states after which a task never runs again (RestartPolicy none). */
const FINAL = new Set(['complete', 'failed', 'shutdown', 'rejected', 'orphaned', 'remove'])
const POLL_MS = 250
/**
 * Swarm's word for a task no node may run (its constraints match no node, or a node each would
 * need is gone): it stays pending until the nodes change, which a benchmark's start does not wait for.
 */
const UNPLACEABLE = /^no suitable node\b/

interface TaskInfo {
  ID: string
  ServiceID: string
  Slot?: number
  NodeID?: string
  Status: {
    State: string
    Message?: string
    Err?: string
    ContainerStatus?: { ContainerID?: string; ExitCode?: number }
  }
  Spec?: { Placement?: { Constraints?: string[] } }
}

/** One replica slot of a service, watched through its task. */
export class TaskSlot {
  readonly exited: Promise<string>
  /** The task's container's exit code once it ended; null when it ended without one. */
  readonly exitCode: Promise<number | null>
  /**
   * Resolves once the task runs. With a health check, Swarm reports a task running only once its
   * container is healthy, and fails the task when it turns unhealthy.
   */
  readonly running: Promise<void>
  node: string | null = null
  containerId: string | null = null
  private resolveExit: (reason: string) => void = () => undefined
  private resolveCode: (code: number | null) => void = () => undefined
  private resolveRunning: () => void = () => undefined
  private taskId: string | null = null
  private lastStatus = ''
  private following = false
  private logs: NodeJS.ReadableStream | null = null

  constructor(
    readonly name: string,
    readonly output: LogTail,
    private readonly image: string
  ) {
    this.exited = new Promise(r => (this.resolveExit = r))
    this.exitCode = new Promise(r => (this.resolveCode = r))
    this.running = new Promise(r => (this.resolveRunning = r))
  }

  update(docker: Docker, task: TaskInfo, nodeName: string | null): void {
    if (this.taskId && this.taskId !== task.ID) return
    this.taskId = task.ID
    this.node = nodeName
    const s = task.Status
    this.containerId = s.ContainerStatus?.ContainerID || this.containerId
    const where = nodeName ? ` on node ${nodeName}` : ''
    const detail = s.Err || s.Message || ''
    const status = `[swarm] task ${s.State}${where}${detail ? `: ${detail}` : ''}`
    if (status !== this.lastStatus) {
      this.lastStatus = status
      this.output.note(status)
    }
    if (s.State === 'running' && !this.following) {
      this.following = true
      this.resolveRunning()
      void this.follow(docker, task.ID)
    }
    if (FINAL.has(s.State)) {
      this.resolveCode(s.ContainerStatus?.ExitCode ?? null)
      this.resolveExit(this.reason(task, where))
    } else if (s.State === 'pending' && UNPLACEABLE.test(s.Err ?? '')) {
      const constraints = task.Spec?.Placement?.Constraints ?? []
      this.resolveCode(null)
      this.resolveExit(
        `cannot be placed: ${s.Err}; its placement constraints: ${constraints.join(', ') || 'none'}`
      )
    }
  }

  private reason(task: TaskInfo, where: string): string {
    const s = task.Status
    const code = s.ContainerStatus?.ExitCode
    if (s.State === 'rejected' && /No such image/i.test(s.Err ?? '')) {
      return `could not start${where}: ${s.Err} (the image ${this.image} must be on every node that runs a task; see docs/swarm.md)`
    }
    if (code !== undefined && (s.State === 'failed' || s.State === 'complete')) {
      return `exited (code ${code})`
    }
    return `task ${s.State}${where}${s.Err ? `: ${s.Err}` : ''}`
  }

  private closed = false

  /** Stops following the log: a removed task's log stream does not always end by itself. */
  close(): void {
    this.closed = true
    ;(this.logs as unknown as { destroy(): void } | null)?.destroy()
    this.output.finish()
  }

  private async follow(docker: Docker, taskId: string): Promise<void> {
    try {
      // dockerode has Task#logs; its typings do not.
      const task = docker.getTask(taskId) as unknown as {
        logs(o: object): Promise<NodeJS.ReadableStream>
      }
      const logs = await task.logs({ follow: true, stdout: true, stderr: true })
      if (this.closed) return (logs as unknown as { destroy(): void }).destroy()
      this.logs = logs
      pipeOutput(docker.modem, logs, this.output)
    } catch (err) {
      this.output.note(`[swarm] cannot follow the task's log: ${(err as Error).message}`)
    }
  }
}

/**
 * Polls the tasks of a deployment's services (the Engine API has no task events to follow) and
 * feeds each slot its task's state, node and log.
 */
export class TaskWatcher {
  private readonly services = new Map<string, TaskSlot[]>()
  private readonly nodeNames = new Map<string, string>()
  private timer: NodeJS.Timeout | null = null
  private polling = false
  private stopped = false

  constructor(private readonly docker: Docker) {}

  /**
   * Follows a service's tasks. After `stop` (a deployment removed while one of its services was
   * still being created) the slots end at once: a poll started then would never be stopped, and
   * would keep the process alive after the run.
   */
  watch(serviceId: string, slots: TaskSlot[]): void {
    if (this.stopped) {
      for (const slot of slots) slot.close()
      return
    }
    this.services.set(serviceId, slots)
    // Not unref'd: while a start waits for its tasks, this poll is what keeps the process alive.
    this.timer ??= setInterval(() => void this.poll(), POLL_MS)
  }

  /** Stops polling and following for good; the slots' outputs end. */
  stop(): void {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    for (const slots of this.services.values()) for (const slot of slots) slot.close()
  }

  private async nodeName(id: string | undefined): Promise<string | null> {
    if (!id) return null
    if (!this.nodeNames.has(id)) {
      const node = (await this.docker.getNode(id).inspect()) as {
        Description?: { Hostname?: string }
      }
      this.nodeNames.set(id, node.Description?.Hostname ?? id)
    }
    return this.nodeNames.get(id)!
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.services.size) return
    this.polling = true
    try {
      const filters = JSON.stringify({ service: [...this.services.keys()] })
      const tasks = (await this.docker.listTasks({ filters })) as TaskInfo[]
      for (const task of tasks) {
        const slot = this.services.get(task.ServiceID)?.[(task.Slot ?? 1) - 1]
        slot?.update(this.docker, task, await this.nodeName(task.NodeID))
      }
    } catch {
      // A poll that fails (a service removed under us) is retried on the next tick.
    } finally {
      this.polling = false
    }
  }
}
