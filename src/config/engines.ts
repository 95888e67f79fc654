/**
 * The engines, named once: the `engine` input's choices, the engine a result records, and the
 * kinds the engine stage builds all read this table (config/ is the first stage, so every other
 * may import it).
 */

/** Where services run: local processes, Docker containers, Swarm services. */
export const ENGINE_KINDS = ['local', 'docker', 'swarm'] as const
export type EngineKind = (typeof ENGINE_KINDS)[number]

/** What the `engine` input may say: an engine, or `auto` (Docker when a daemon answers, else local). */
export const ENGINE_CHOICES = ['auto', ...ENGINE_KINDS] as const
export type EngineChoice = (typeof ENGINE_CHOICES)[number]

/** The base the shipped Dockerfile builds GNES on from PyPI (the `base-image` input's default). */
export const DEFAULT_BASE_IMAGE = 'python:3.11-slim'
