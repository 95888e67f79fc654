import * as fs from 'node:fs'
import { Writable } from 'node:stream'
import { withDeadline } from './deadline'

const TAIL_LINES = 30
/** An exited instance's last output may still be in flight; wait this long for it. */
const OUTPUT_DRAIN_MS = 2000

/**
 * The output of one service instance or client, whatever runs it: every byte goes to its log file,
 * the last lines stay in memory for error messages, and the first line matching `ready` resolves
 * `ready`. It is a Writable, so a process's pipes or a demuxed Docker log stream pipe into it.
 */
export class LogTail extends Writable {
  readonly ready: Promise<void>
  /** Resolves when the output has ended (the stream closed or `end()` was called). */
  readonly ended: Promise<void>
  private lines: string[] = []
  private partial = ''
  private markReady: () => void = () => undefined
  /** Written synchronously: when `ready` resolves, the line that made it is in the file. */
  private fd: number | null

  /** `keep` lines stay in memory: a tail for services, everything for the load client's reports. */
  constructor(
    logFile: string | null,
    private readonly readyPattern?: RegExp,
    private readonly keep = TAIL_LINES
  ) {
    super()
    this.fd = logFile ? fs.openSync(logFile, 'a') : null
    this.ready = readyPattern ? new Promise(r => (this.markReady = r)) : Promise.resolve()
    this.ended = new Promise(resolve => this.on('finish', resolve))
    this.on('finish', () => this.close())
    // A source still writing after the end (a log stream torn down mid-chunk) must not crash a
    // suite over its log file; what was written stays.
    this.on('error', () => undefined)
  }

  /** Ends the output once, whoever ends it first (the source's end, or a teardown). */
  finish(): void {
    if (!this.writableEnded) this.end()
  }

  _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.append(chunk)
    const parts = (this.partial + chunk.toString()).split(/\r?\n/)
    this.partial = parts.pop() ?? ''
    for (const line of parts) this.line(line)
    done()
  }

  /** Adds a line of our own (e.g. a Swarm task's state change) to the log and the tail. */
  note(line: string): void {
    if (this.writableEnded) return
    this.append(`${line}\n`)
    this.line(line)
  }

  private append(data: Buffer | string): void {
    if (this.fd !== null) fs.appendFileSync(this.fd, data)
  }

  private close(): void {
    if (this.fd !== null) fs.closeSync(this.fd)
    this.fd = null
  }

  private line(line: string): void {
    if (this.readyPattern?.test(line)) this.markReady()
    this.lines.push(line)
    if (this.lines.length > this.keep) this.lines.shift()
  }

  /** The last lines, the unfinished one included. */
  text(): string {
    return [...this.lines, this.partial].filter(l => l.trim() !== '').join('\n')
  }
}

/** The output's last lines once it ended, or once OUTPUT_DRAIN_MS passed. */
export async function drainedText(output: LogTail): Promise<string> {
  await withDeadline(output.ended, OUTPUT_DRAIN_MS, () => new Error('drain')).catch(() => undefined)
  return output.text()
}
