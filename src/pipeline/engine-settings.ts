import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { imageArchiveDir } from '../engine/cache-dir'
import type { EngineSettings } from '../engine/settings'

/**
 * The few inputs an engine takes; `keepRunId` as EngineSettings says. Image archives are kept for
 * the action's cache only: the action resolves `cache: auto` by the runner's cache service, and
 * elsewhere auto means no.
 */
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
  imageArchives: inputs.cache === 'true' ? imageArchiveDir() : null,
  outDir: path.resolve(inputs['out-dir']),
  cpus: inputs.cpus,
  memory: inputs.memory,
  ...(keepRunId ? { keepRunId } : {})
})
