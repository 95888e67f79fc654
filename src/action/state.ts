/** The engine that ran, saved by the main step, so the `post:` step cleans up only after Docker. */
export const STATE_ENGINE = 'engine'
