import { spawn, type ChildProcess } from 'node:child_process'

/** One object as `git cat-file --batch` prints it. */
export interface RawObject {
  oid: string
  type: string
  body: Buffer
}

/**
 * One `git cat-file --batch` process kept open for the life of a work repository: an append reads
 * trees and blobs a few dozen times, and starting a process from node costs more than reading.
 * Requests are answered in order. Git finds objects that arrive in the repository after it started
 * (a fetch's new pack, a loose object): it looks again when an object is not where it last looked.
 */
export class ObjectReader {
  private child: ChildProcess | null = null
  private buffer = Buffer.alloc(0)
  private queue: {
    oids: string[]
    got: RawObject[]
    /** The first object found missing: the request fails once all its answers are read. */
    missing: string | null
    resolve: (objects: RawObject[]) => void
    reject: (err: Error) => void
  }[] = []
  private stderr = ''

  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv
  ) {}

  /** The objects, in the order asked; an object the repository lacks is an error. */
  read(oids: string[]): Promise<RawObject[]> {
    if (oids.length === 0) return Promise.resolve([])
    const child = this.start()
    return new Promise((resolve, reject) => {
      this.queue.push({ oids, got: [], missing: null, resolve, reject })
      child.stdin!.write(`${oids.join('\n')}\n`)
    })
  }

  /** Ends the process (its input closes; it exits); a later read starts another. */
  close(): void {
    this.child?.stdin?.end()
    this.child = null
    this.buffer = Buffer.alloc(0)
    this.stderr = ''
  }

  private start(): ChildProcess {
    if (this.child) return this.child
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: this.cwd,
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    // A process closed by `close` says nothing more; only the current one is listened to.
    const current = () => this.child === child
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!current()) return
      this.buffer = Buffer.concat([this.buffer, chunk])
      this.drain()
    })
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')))
    child.stdin!.on('error', () => undefined)
    child.on('close', () => {
      if (current()) {
        this.fail(
          new Error(`git cat-file --batch ended: ${this.stderr.trim() || 'no reason given'}`)
        )
      }
    })
    child.on('error', err => {
      if (current()) this.fail(err)
    })
    this.child = child
    return child
  }

  /** Answers the oldest request as far as the output read so far goes. */
  private drain(): void {
    for (;;) {
      const request = this.queue[0]
      if (!request) return
      const eol = this.buffer.indexOf(0x0a)
      if (eol < 0) return
      const [oid, type, size] = this.buffer.subarray(0, eol).toString('utf8').split(' ')
      if (size === undefined) {
        this.buffer = this.buffer.subarray(eol + 1)
        request.missing ??= oid
        request.got.push({ oid, type, body: Buffer.alloc(0) })
      } else {
        const end = eol + 1 + Number(size)
        if (this.buffer.length < end + 1) return
        request.got.push({ oid, type, body: Buffer.from(this.buffer.subarray(eol + 1, end)) })
        this.buffer = this.buffer.subarray(end + 1)
      }
      if (request.got.length === request.oids.length) {
        this.queue.shift()
        if (request.missing) {
          request.reject(new Error(`object ${request.missing} is not in the work repository`))
        } else request.resolve(request.got)
      }
    }
  }

  private fail(err: Error): void {
    this.child = null
    for (const request of this.queue.splice(0)) request.reject(err)
  }
}
