import { parseDocument } from 'yaml'
import { TopologyError } from './errors'

/** A topology file's YAML as plain data; errors name the file. */
export function yamlData(text: string, file: string): unknown {
  // Merge keys (`<<: *common`) are how Compose files share settings between services.
  const doc = parseDocument(text, { prettyErrors: true, merge: true })
  if (doc.errors.length > 0) {
    throw new TopologyError(`${file}: not valid YAML: ${doc.errors[0].message}`)
  }
  try {
    // Aliases are bounded (yaml's own default): a billion-laughs expansion is refused.
    return doc.toJS({ maxAliasCount: 100 })
  } catch (err) {
    throw new TopologyError(`${file}: not a plain YAML topology: ${(err as Error).message}`)
  }
}
