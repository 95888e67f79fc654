import { z } from 'zod'
import type { GnesDeployment } from '../engine/types'
import { assetPath } from '../paths'

/**
 * The load client is GNES's generated gRPC client (GnesRPCStub), driven by
 * `python/gnes_client.py`; a deployment runs it beside the topology (a local process, or a
 * container on the topology's network), and its JSON lines are read back here.
 */
const clientScript = (): string => assetPath('python', 'gnes_client.py')

/** One StreamCall: `docs` documents in requests of the plan's batch size, paced at `rate` req/s or (null) all at once. */
export interface ClientStream {
  docs: number
  rate: number | null
  /**
   * Epoch seconds at which a paced stream's schedule starts (request j is due at `at` + j/rate);
   * without it, when the stream begins. Two clients given one `at` share one schedule.
   */
  at?: number
}

/** What one client process sends: its streams one after the other over one channel. */
export interface ClientPlan {
  batchSize: number
  docBytes: number
  streams: ClientStream[]
}

const epoch = z.number().finite()

/** What the client prints for one stream, as one JSON line when the stream ends. */
const StreamReportSchema = z.object({
  stream: z.number().int().nonnegative(),
  requests: z.number().int().positive(),
  responses: z.number().int().nonnegative(),
  /** Epoch seconds when the stream call began, and its duration. */
  startedAt: epoch,
  seconds: z.number().nonnegative(),
  rate: z.number().positive().nullable(),
  /** Per request id: when it was due (paced streams only) and when gRPC took it, epoch seconds. */
  scheduled: z.array(epoch).nullable(),
  sent: z.array(epoch)
})
export type StreamReport = z.infer<typeof StreamReportSchema>

function clientArgs(
  frontend: { host: string; port: number },
  plan: ClientPlan,
  timeoutSec: number
): string[] {
  return [
    ...['--host', frontend.host, '--port', String(frontend.port)],
    ...['--batch-size', String(plan.batchSize), '--doc-bytes', String(plan.docBytes)],
    ...['--plan', JSON.stringify(plan.streams), '--timeout', String(timeoutSec)]
  ]
}

/**
 * The client's report lines (GNES may log around them), one per stream of the plan. Throws when a
 * line is malformed or a stream is missing, so a half-finished client never passes as a run.
 */
function readClientReports(output: string, plan: ClientPlan): StreamReport[] {
  const reports = output
    .split('\n')
    .filter(l => l.trim().startsWith('{"stream"'))
    .map(l => {
      const parsed = StreamReportSchema.safeParse(JSON.parse(l))
      if (!parsed.success)
        throw new Error(`load client printed a malformed report: ${l.slice(0, 120)}`)
      return parsed.data
    })
  if (reports.length !== plan.streams.length) {
    throw new Error(
      `load client reported ${reports.length} of ${plan.streams.length} streams: ${output.trim().slice(-400)}`
    )
  }
  return reports
}

/** Runs `plan` on a deployment; each stream's report, or a failure naming the client. */
export async function runLoadClient(
  dep: GnesDeployment,
  plan: ClientPlan,
  timeoutSec: number
): Promise<StreamReport[]> {
  const args = clientArgs(dep.frontend, plan, timeoutSec)
  const output = await dep.runScript({ name: 'client', script: clientScript(), args, timeoutSec })
  return readClientReports(output, plan)
}
