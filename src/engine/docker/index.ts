/** The Docker engine's public surface. */
export { daemonAddress, dockerAvailable } from './client'
export { sweep, type SweepOptions } from './cleanup'
export {
  createDockerEngine,
  dockerEngineOptions,
  STATE_RUN_ID,
  type DockerEngine,
  type DockerEngineOptions
} from './engine'
export { LABEL } from './labels'
