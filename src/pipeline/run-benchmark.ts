import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { shouldRecord } from '../history'
import type { PairedComparison } from '../judge'
import { comparePairedRun, compareWithHistory } from './compare'
import type { RunPorts } from './ports'
import { historyTarget, preflight, warnCaseNotes } from './preflight'
import { recordResult } from './record'
import { recordResultFile } from './record-file'
import { writeResult } from './result-file'
import { runPairedSuite } from './suite/paired'
import { runSuite } from './suite/run-suite'
import { checkThresholds, judgeThresholds } from './thresholds'

/**
 * The run both front ends make: pre-flight, the suite (or a paired run of base and head), the
 * result written, judged (paired, or a pull request against the history; the thresholds on every
 * run, failing it last with `fail-on-threshold`) and recorded. With
 * `result-file` it runs nothing and records that file instead (`recordResultFile`).
 */
export async function runBenchmark(inputs: Inputs, ports: RunPorts): Promise<void> {
  const file = inputs['result-file']
  if (file !== null) return recordResultFile(file, inputs, ports)
  const { log, git, links } = ports
  const record = shouldRecord(inputs.record, ports.event)
  const paired = inputs.baseline === 'paired'
  // Pull requests in history mode read the history and other events may write it: reach it
  // before the suite. A paired pull request measures its baseline itself.
  const pullRequest = paired ? null : ports.pullRequest
  const pairs = await preflight(
    inputs,
    historyTarget(ports.history, record || pullRequest !== null, record)
  )
  warnCaseNotes(
    pairs.flatMap(p => [p.head, p.base]),
    log
  )
  const cases = pairs.map(p => p.head)
  const suiteId = randomUUID()
  const engine = await ports.chooseEngine?.(suiteId)
  const options = { log, suiteId, engine, git, keepRunId: ports.keepRunId }
  const pairedRun = paired ? await runPairedSuite(inputs, { ...options, pairs }) : null
  const result = pairedRun?.head ?? (await runSuite(inputs, { ...options, cases }))
  await ports.written(result, writeResult(result, inputs['out-dir']))
  const gates = judgeThresholds(inputs, pairs, result, pairedRun?.base ?? null)

  const threshold = inputs['alert-threshold']
  let comparedPairs: PairedComparison | undefined
  if (pairedRun) {
    // The base is kept for inspection beside the head's result, never recorded: the head's
    // entries record their change against it.
    const base = writeResult(pairedRun.base, path.join(inputs['out-dir'], 'base'))
    const { comparison, markdown } = comparePairedRun(
      pairedRun,
      { threshold },
      links,
      ports.compared,
      gates.markdown
    )
    comparedPairs = comparison
    await ports.judged({ ...comparison, markdown, base }, result, gates)
  } else if (pullRequest) {
    const history = await pullRequest.history()
    const { comparison, markdown } = compareWithHistory(
      result,
      history,
      { threshold, baseRef: pullRequest.baseRef, mergeBaseSha: pullRequest.baseSha },
      links,
      gates.markdown
    )
    await ports.judged({ ...comparison, markdown, base: null }, result, gates)
  } else {
    await ports.judged(null, result, gates)
  }

  await ports.record(
    record
      ? (target, storeLog) =>
          recordResult(result, target, {
            inputs,
            cases,
            repositoryUrl: links.repositoryUrl ?? undefined,
            log: storeLog,
            paired: comparedPairs
          })
      : null
  )
  // Once the run is recorded: a broken gate fails the step on either front end.
  checkThresholds(inputs, gates)
}
