import type { Inputs } from '../config/inputs'
import type { EngineSettings } from '../engine/settings'

/** The few inputs an engine takes; `keepRunId` as EngineSettings says. */
export const engineSettings = (
  inputs: Inputs,
  keepRunId?: (runId: string) => void
): EngineSettings => ({
  engine: inputs.engine,
  gnesVersion: inputs['gnes-version'],
  gnesSource: inputs['gnes-source'],
  image: inputs.image,
  dockerfile: inputs.dockerfile,
  dockerContext: inputs['docker-context'],
  baseImage: inputs['base-image'],
  wheelhouse: inputs.wheelhouse,
  cpus: inputs.cpus,
  memory: inputs.memory,
  ...(keepRunId ? { keepRunId } : {})
})
