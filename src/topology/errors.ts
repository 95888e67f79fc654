/** A topology file that cannot be run: the message names the file, the place in it and the rule. */
export class TopologyError extends Error {}

/** The error for one place (`services.web.ports`) of one file. */
export const topologyError = (file: string, where: string, msg: string): TopologyError =>
  new TopologyError(`${file}: invalid topology:\n  at ${where}: ${msg}`)
