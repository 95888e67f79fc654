import { parseDocument } from 'yaml'
import { TopologyError } from './errors'

/** A topology file's YAML as plain data; errors name the file. */
export function yamlData(text: string, file: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    throw new TopologyError(`${file}: not valid YAML: ${doc.errors[0].message}`)
  }
  try {
    // A topology has no use for aliases; a few are tolerated, a billion-laughs expansion is not.
    return doc.toJS({ maxAliasCount: 10 })
  } catch (err) {
    throw new TopologyError(`${file}: not a plain YAML topology: ${(err as Error).message}`)
  }
}
