import * as fs from 'node:fs'
import { InputError, type Inputs } from './inputs'

/**
 * Files named by inputs that are only read after the suite (the README template) are checked
 * before it, so a typo fails in a second with the input's name instead of after the whole run.
 */
export function checkInputFiles(inputs: Inputs): void {
  const template = inputs['readme-template']
  if (template && !fs.statSync(template, { throwIfNoEntry: false })?.isFile()) {
    throw new InputError(
      `Invalid input:\n  input 'readme-template' = '${template}': no such file (a Handlebars template)`
    )
  }
}
