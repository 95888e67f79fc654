/** The Docker engine's public surface (and what the swarm engine and cleanup share with it). */
export { daemonAddress, dockerAvailable } from './client'
export { sweep, type Swept } from './cleanup'
export {
  describeSweep,
  dockerEngineOptions,
  STATE_RUN_ID,
  type DockerEngineOptions
} from './daemon'
export { createDockerEngine } from './engine'
export { LABEL } from './labels'
