import { setTimeout as sleep } from 'node:timers/promises'
import type { Inputs } from '../config/inputs'
import type { Deployment, Engine } from '../engine/types'
import { parseRouteDump, RouteDumpError } from '../metrics/envelope'
import { bestOfRuns, summarizeRun } from '../metrics/run'
import type { CaseResult, RunResult } from '../result/schema'
import type { Topology } from '../topology/schema'
import type { Log } from './log'

const READY_TIMEOUT_MS = 120_000
/** The frontend appends a response's envelope around the time it answers; allow it to land. */
const DUMP_GRACE_MS = 10_000

async function waitForDumpLines(dep: Deployment, count: number): Promise<string[]> {
  const until = Date.now() + DUMP_GRACE_MS
  for (;;) {
    // A last line without its newline may still be being written: it does not count yet.
    const text = await dep.readRouteDump()
    const lines = text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(l => l.trim() !== '')
    if (lines.length >= count) return lines
    if (Date.now() > until) {
      throw new RouteDumpError(
        `route dump has ${lines.length} envelopes, expected ${count}: the frontend did not record every response`
      )
    }
    await sleep(100)
  }
}

const fmt = (s: number) => s.toFixed(3)
const label = (index: number, warmups: number, runs: number) =>
  index < warmups ? `warm-up ${index + 1}/${warmups}` : `run ${index - warmups + 1}/${runs}`

export interface CaseSpec {
  file: string
  topology: Topology
}

/** Starts one topology, drives warm-up and measured runs through it, and always stops it. */
export async function runCase(
  engine: Engine,
  spec: CaseSpec,
  inputs: Inputs,
  logDir: string,
  log: Log
): Promise<CaseResult> {
  const load = { docs: inputs.docs, batchSize: inputs['batch-size'], docBytes: inputs['doc-bytes'] }
  const total = inputs['warmup-runs'] + inputs.runs
  const deadline = Date.now() + inputs['case-timeout'] * 1000
  const started = Date.now()
  const dep = await engine.start(spec.topology, { logDir, readyTimeoutMs: READY_TIMEOUT_MS })
  log.info(`services ready in ${((Date.now() - started) / 1000).toFixed(1)} s; logs in ${logDir}`)
  const runs: RunResult[] = []
  let metrics: string[] = []
  try {
    let seen = 0
    for (let index = 0; index < total; index++) {
      const warmup = index < inputs['warmup-runs']
      const remaining = Math.floor((deadline - Date.now()) / 1000)
      if (remaining <= 0) {
        throw new Error(
          `case ${spec.topology.id} exceeded case-timeout (${inputs['case-timeout']} s)`
        )
      }
      const startedAt = new Date().toISOString()
      const report = await Promise.race([dep.runClient(load, remaining), dep.failed])
      const lines = await Promise.race([waitForDumpLines(dep, seen + report.responses), dep.failed])
      const run = lines.slice(seen, seen + report.responses)
      const envelopes = parseRouteDump(run, dep.routeDumpName, seen + 1)
      seen += report.responses
      const summarized = summarizeRun({
        index,
        warmup,
        startedAt,
        clientSeconds: report.seconds,
        envelopes,
        payloadBytes: load.docs * load.docBytes
      })
      metrics = summarized.metrics
      runs.push(summarized.run)
      const s = summarized.run.summaries.roundtrip
      log.info(
        `${label(index, inputs['warmup-runs'], inputs.runs)}: ${report.responses} requests in ${fmt(report.seconds)} s, ` +
          `roundtrip mean ${fmt(s.mean)} s, median ${fmt(s.median)} s, p90 ${fmt(s.p90)} s, ` +
          `${summarized.run.dataRateMBps.toFixed(1)} MB/s`
      )
    }
  } finally {
    await dep.stop()
  }
  return {
    id: spec.topology.id,
    name: spec.topology.name,
    topologyFile: spec.file,
    services: spec.topology.services.map(s => ({
      name: s.name,
      role: s.role,
      model: s.role === 'frontend' ? 'FrontendService' : s.model,
      replicas: s.role === 'frontend' ? 1 : s.replicas,
      ...(dep.nodes[s.name] ? { nodes: dep.nodes[s.name] } : {})
    })),
    metrics,
    runs,
    ...bestOfRuns(runs, metrics, load.docs)
  }
}
