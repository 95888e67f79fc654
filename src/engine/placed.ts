import type { ContainerAddressing } from '../topology/containers'
import { fromTraces } from '../topology/http-schema'
import type { GnesTopology, HttpTopology, Topology } from '../topology/schema'
import { startTraceReceiver, type TraceReceiver } from '../traces/receiver'
import { gnesDeployment } from './gnes-deployment'
import { gnesPlan } from './plan/gnes'
import { httpPlan } from './plan/http'
import type { Plan } from './plan/types'
import type { Placement, Platform, Started } from './platform'
import type { Deployment } from './types'

/**
 * A topology placed on a platform, the one place that asks a topology's kind, so the lifecycle
 * runs every plan alike: its plan, its addresses the platform's; its placement; the trace receiver
 * its services export spans to; and the deployment it hands out.
 */
export interface Placed {
  readonly plan: Plan
  readonly placement: Placement
  readonly traces: TraceReceiver | null
  /**
   * The lifecycle's deployment as the caller gets it (a GNES one also runs scripts and reads the
   * route dump); `started` finds a started instance by name.
   */
  deployment(base: Deployment, started: (instance: string) => Started | undefined): Deployment
}

/** `nextIndex` counts the engine's deployments, asked as the placement opens. */
export function placeTopology(
  topology: Topology,
  platform: Platform,
  logDir: string,
  nextIndex: () => number
): Promise<Placed> {
  switch (topology.kind) {
    case 'gnes':
      return placeGnes(topology, platform, logDir, nextIndex)
    case 'http':
      return placeHttp(topology, platform, nextIndex)
  }
}

async function placeGnes(
  topology: GnesTopology,
  platform: Platform,
  logDir: string,
  nextIndex: () => number
): Promise<Placed> {
  const plan = gnesPlan(topology, await platform.gnesAddressing(topology, logDir))
  const placement = await platform.open(plan, nextIndex())
  return {
    plan,
    placement,
    traces: null,
    deployment: (base, started) =>
      gnesDeployment(base, plan, placement, logDir, () => started(plan.routeDump.instance))
  }
}

/**
 * A topology with `hops: { otlp }` gets its trace receiver on the placement's trace host, which
 * exists only once the placement does (a network's gateway), so its plan is made again with the
 * receiver's endpoints.
 */
async function placeHttp(
  topology: HttpTopology,
  platform: Platform,
  nextIndex: () => number
): Promise<Placed> {
  const addressing = await platform.httpAddressing(topology)
  const plan = httpPlan(topology, addressing)
  const placement = await platform.open(plan, nextIndex())
  const placed: Placed = { plan, placement, traces: null, deployment: base => base }
  if (!fromTraces(topology.hops)) return placed
  try {
    const traces = await startTraceReceiver(await placement.traceHost())
    return { ...placed, plan: httpPlan(topology, withTraces(addressing, traces)), traces }
  } catch (err) {
    await placement.remove(true)
    throw err
  }
}

const withTraces = (a: ContainerAddressing, traces: TraceReceiver): ContainerAddressing => ({
  ...a,
  otlp: { http: traces.httpEndpoint, grpc: traces.grpcEndpoint }
})
