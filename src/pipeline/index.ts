/**
 * The pipeline both front ends (the action in src/main.ts, the CLI in src/cli.ts) call: the run
 * (`runBenchmark`, with each front end's ports), and its steps: check the inputs, run the suite
 * (or a paired run of base and head), write the result, record it in the history with the report
 * re-rendered, compare it; and the recording of a result measured elsewhere (`recordResultFile`).
 */
export { runBenchmark } from './run-benchmark'
export type { Append, RecordPorts, RunPorts, RunVerdict } from './ports'
export { recordResultFile } from './record-file'
export { engineSettings } from './engine-settings'
export { preflight } from './preflight'
export { runSuite } from './suite/run-suite'
export { runPairedSuite, type PairedRun } from './suite/paired'
export { readResult, writeResult } from './result-file'
export { comparePairedRun, compareWithHistory } from './compare'
export {
  checkThresholds,
  judgeThresholds,
  ThresholdsBroken,
  type JudgedThresholds
} from './thresholds'
export { recordResult } from './record'
export { bisect, commitRange, type BisectRun } from './bisect'
export {
  appendEntries,
  branchLocation,
  describeLocation,
  historyLocation,
  pruneEntries,
  type BranchHistory,
  type HistoryLocation,
  type Recorded
} from './location'
export { knownTopologies, renderHook } from './render'
