/** A YAML mapping as the Compose reader walks it: parsed, untrusted, any value. */
export type Obj = Record<string, unknown>

/** A mapping: not null, not a list. */
export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)
