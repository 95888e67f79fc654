import type { Inputs } from '../config/inputs'
import type { Log } from '../suite/log'
import { LocalEngine } from './local/engine'
import type { Engine } from './types'

/** `engine: local` always runs processes on this machine. */
export async function selectEngine(inputs: Inputs, suiteId: string, log: Log): Promise<Engine> {
  log.info(`engine: local processes on loopback (GNES ${inputs['gnes-version']})`)
  return new LocalEngine(inputs['gnes-version'], suiteId, m => log.info(m))
}
