import * as core from '@actions/core'
import { DEFAULTS, type RawInputs } from '../config/inputs'

/** The action's inputs as raw strings; empty ones fall back to the shared defaults. */
export function actionInputs(): Partial<RawInputs> {
  const raw: Partial<RawInputs> = {}
  for (const name of Object.keys(DEFAULTS) as (keyof RawInputs)[]) {
    const value = core.getInput(name)
    if (value !== '') raw[name] = value
  }
  return raw
}
