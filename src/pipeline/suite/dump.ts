import { setTimeout as sleep } from 'node:timers/promises'
import type { GnesDeployment } from '../../engine/types'
import { parseRouteDump, RouteDumpError, type DumpedEnvelope } from '../../metrics/envelope'

/** The frontend appends a response's envelope around the time it answers; allow it to land. */
const DUMP_GRACE_MS = 10_000

/**
 * Reads a deployment's route dump stream by stream: every stream's envelopes follow the previous
 * stream's, because the frontend ends a StreamCall only after all its answers are in.
 */
export class DumpCursor {
  private seen = 0

  constructor(private readonly dep: GnesDeployment) {}

  /** The next `count` envelopes, waiting up to DUMP_GRACE_MS for the frontend to write them. */
  async next(count: number): Promise<DumpedEnvelope[]> {
    const until = Date.now() + DUMP_GRACE_MS
    for (;;) {
      // A last line without its newline may still be being written: it does not count yet.
      const text = await Promise.race([this.dep.readRouteDump(), this.dep.failed])
      const lines = text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter(l => l.trim() !== '')
      if (lines.length >= this.seen + count) {
        const envelopes = parseRouteDump(
          lines.slice(this.seen, this.seen + count),
          this.dep.routeDumpName,
          this.seen + 1
        )
        this.seen += count
        return envelopes
      }
      if (Date.now() > until) {
        throw new RouteDumpError(
          `route dump has ${lines.length - this.seen} new envelopes, expected ${count}: the frontend did not record every response`
        )
      }
      await sleep(100)
    }
  }
}
