/** The Docker engine's public surface (and what the swarm engine and cleanup share with it). */
export { daemonAddress, dockerAvailable } from './client'
export { describeSweep, sweep, type Swept } from './cleanup'
export { type DockerEngineOptions } from './daemon'
export { createDockerEngine } from './engine'
export { LABEL } from './labels'
