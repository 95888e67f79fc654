/**
 * The highest rate, in requests per second, that an input, a topology file or an automatic sweep
 * offers: a bound on a mistyped rate, well above what this project's drivers sustain on a runner
 * (the HTTP driver 2,560 req/s on 2 cores, to a tree of four nodes behind Caddy).
 */
export const MAX_RATE = 10_000

/**
 * The lowest rate an input offers: one request every 100 s. Below it a run of the standard 20
 * requests would outlast any case-timeout.
 */
export const MIN_RATE = 0.01
