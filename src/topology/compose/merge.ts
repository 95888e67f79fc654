/**
 * Several Compose files merged in order, as `docker compose -f a.yml -f b.yml` merges them
 * (compose-spec `13-merge.md`), for the keys the benchmark reads: mappings merge key by key,
 * a later scalar replaces an earlier one, sequences are appended (an item already there is not
 * added twice), and `command`, `entrypoint` and `healthcheck.test` are replaced whole.
 * Files are normalized first (normalize.ts), so `environment` lists and mappings merge alike.
 */
type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

const REPLACED = new Set(['command', 'entrypoint', 'test'])

function mergeValue(key: string, base: unknown, over: unknown): unknown {
  if (over === undefined) return base
  if (isObj(base) && isObj(over)) return mergeObjects(base, over)
  if (Array.isArray(base) && Array.isArray(over) && !REPLACED.has(key)) {
    const seen = new Set(base.map(v => JSON.stringify(v)))
    return [...base, ...over.filter(v => !seen.has(JSON.stringify(v)))]
  }
  return over
}

function mergeObjects(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base }
  for (const [k, v] of Object.entries(over)) out[k] = mergeValue(k, base[k], v)
  return out
}

export const mergeFiles = (files: readonly Obj[]): Obj => files.reduce(mergeObjects, {})
