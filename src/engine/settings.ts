import type { EngineChoice } from '../config/engines'

/**
 * What an engine is made from: the few settings it takes (a front end converts its own inputs),
 * the same for the Docker-based engines as for local processes.
 */

/** Which GNES runs and where (the daemon's engines' part). */
export interface DaemonSettings {
  gnesVersion: string
  /** An existing image reference; pulled when missing. Wins over the other two sources. */
  image?: string | null
  /** A Dockerfile to build (e.g. a GNES checkout); its context defaults to its directory. */
  dockerfile?: string | null
  dockerContext?: string | null
  /** Base of the shipped Dockerfile when GNES is built from PyPI. */
  baseImage: string
  /**
   * A GNES source tree (a checkout): built into the image with the shipped Dockerfile on Docker
   * and Swarm, installed into a venv by local processes. Wins over `gnesVersion`.
   */
  gnesSource?: string | null
  /**
   * A directory of image archives: a PyPI build missing from the daemon is loaded from it, and the
   * image in use saved into it once, for the action's cache to carry to the next job. Null:
   * neither.
   */
  imageArchives?: string | null
  /** The run's output directory: left out of every build context, since the run writes to it. */
  outDir?: string | null
  /** Per-service limits, as docker run's --cpus and --memory spell them. */
  cpus?: string | null
  memory?: string | null
  /**
   * Takes the run id before anything labelled with it is created, for a caller that removes the
   * run's resources itself should this process die first (the action's `post:` step). Without
   * it, the engine starts a reaper that does.
   */
  keepRunId?: (runId: string) => void
}

export interface EngineSettings extends DaemonSettings {
  engine: EngineChoice
  gnesSource: string | null
}
