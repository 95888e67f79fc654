import { z } from 'zod'
import type { ClientLoad, ClientReport } from '../engine/types'
import { assetPath } from '../paths'

/**
 * The load client is GNES's generated gRPC client (GnesRPCStub), driven by
 * `python/gnes_client.py`; both engines run it (a local process, or a container on the topology's
 * network) with these arguments and read its one-line JSON report back through `parseClientReport`.
 */
export const CLIENT_SCRIPT = 'gnes_client.py'

export const clientScriptPath = (): string => assetPath('python', CLIENT_SCRIPT)

export function clientArgs(
  frontend: { host: string; port: number },
  load: ClientLoad,
  timeoutSec: number
): string[] {
  return [
    ...['--host', frontend.host, '--port', String(frontend.port)],
    ...['--docs', String(load.docs), '--batch-size', String(load.batchSize)],
    ...['--doc-bytes', String(load.docBytes), '--timeout', String(timeoutSec)]
  ]
}

const ClientReportSchema = z.object({
  requests: z.number().int().nonnegative(),
  responses: z.number().int().nonnegative(),
  startedAt: z.number(),
  seconds: z.number().nonnegative()
})

/** The report is the last JSON line of the client's output (GNES may log around it); null if none. */
export function parseClientReport(output: string): ClientReport | null {
  const line = output
    .split('\n')
    .reverse()
    .find(l => l.trim().startsWith('{'))
  if (!line) return null
  try {
    const parsed = ClientReportSchema.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
