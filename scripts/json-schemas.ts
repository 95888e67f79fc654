/**
 * The published JSON Schemas (schema/*.schema.json) of what this project writes for others to
 * read, emitted from the zod schemas the code validates with, so the two cannot drift:
 * `node scripts/run-ts.mjs scripts/json-schemas.ts` rewrites them, and
 * `__tests__/json-schemas.test.ts` fails while they are stale.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { ZodTypeAny } from 'zod'
import { ignoreOverride, zodToJsonSchema } from 'zod-to-json-schema'
import { HISTORY_SCHEMA, HistoryEntrySchema, SampleValuesSchema } from '../src/history/schema'
import { RESULT_SCHEMA, ResultSchema } from '../src/result/schema'

const BASE = 'https://raw.githubusercontent.com/your-org/gnes-latency-bench/v1/schema/'

/** File name → JSON Schema (draft-07, zod-to-json-schema's own target). */
export function jsonSchemas(): Record<string, object> {
  // zod-to-json-schema types its argument by zod's v3 entry point, which TypeScript cannot match
  // to the root one (the same classes) without instantiating every field: hence the cast.
  const emit = (file: string, schema: ZodTypeAny, id: string) => ({
    $id: `${BASE}${file}`,
    title: id,
    ...zodToJsonSchema(schema as unknown as Parameters<typeof zodToJsonSchema>[0], {
      target: 'jsonSchema7',
      $refStrategy: 'none',
      // The samples' check is one custom test per array (for speed); its meaning, spelt out.
      override: def =>
        def === SampleValuesSchema._def
          ? { type: 'array', items: { type: 'number' } }
          : ignoreOverride
    })
  })
  return {
    'result.schema.json': emit('result.schema.json', ResultSchema as ZodTypeAny, RESULT_SCHEMA),
    'history-entry.schema.json': emit(
      'history-entry.schema.json',
      HistoryEntrySchema as ZodTypeAny,
      HISTORY_SCHEMA
    )
  }
}

export const SCHEMA_DIR = path.join(__dirname, '..', 'schema')

if (require.main === module) {
  fs.mkdirSync(SCHEMA_DIR, { recursive: true })
  for (const [file, schema] of Object.entries(jsonSchemas()))
    fs.writeFileSync(path.join(SCHEMA_DIR, file), `${JSON.stringify(schema, null, 2)}\n`)
}
