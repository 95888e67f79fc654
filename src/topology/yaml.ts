import { isPair, isScalar, isSeq, parseDocument, visit, type Document } from 'yaml'
import { TopologyError } from './errors'

/** A value tagged `!reset` or `!override` (Compose's merge tags), by its keys from the top. */
export interface MergeTag {
  tag: 'reset' | 'override'
  path: string[]
}

/** A topology file's YAML as plain data, with its merge tags; errors name the file. */
export interface YamlFile {
  data: unknown
  tags: MergeTag[]
}

/** The keys from the top to each `!reset` or `!override` value (a list item's by its index). */
function mergeTags(doc: Document): MergeTag[] {
  const tags: MergeTag[] = []
  visit(doc, {
    Node(_key, node, ancestry) {
      if (node.tag !== '!reset' && node.tag !== '!override') return
      const path: string[] = []
      ancestry.forEach((a, i) => {
        const next = ancestry[i + 1] ?? node
        if (isPair(a) && isScalar(a.key)) path.push(String(a.key.value))
        if (isSeq(a)) path.push(String(a.items.indexOf(next as never)))
      })
      tags.push({ tag: node.tag === '!reset' ? 'reset' : 'override', path })
    }
  })
  return tags
}

export function yamlFile(text: string, file: string): YamlFile {
  // Merge keys (`<<: *common`) are how Compose files share settings between services.
  const doc = parseDocument(text, { prettyErrors: true, merge: true })
  if (doc.errors.length > 0) {
    throw new TopologyError(`${file}: not valid YAML: ${doc.errors[0].message}`)
  }
  try {
    // Aliases are bounded (yaml's own default): a billion-laughs expansion is refused.
    return { data: doc.toJS({ maxAliasCount: 100 }), tags: mergeTags(doc) }
  } catch (err) {
    throw new TopologyError(`${file}: not a plain YAML topology: ${(err as Error).message}`)
  }
}

export const yamlData = (text: string, file: string): unknown => yamlFile(text, file).data
