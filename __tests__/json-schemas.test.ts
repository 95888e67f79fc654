/**
 * The published JSON Schemas (schema/): fresh against the zod schemas they come from, and
 * accepting every result and history entry the fixtures hold, while refusing a broken one.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import Ajv from 'ajv'
import { jsonSchemas, SCHEMA_DIR } from '../scripts/json-schemas'
import { entriesFromResult, importLegacy } from '../src/history'
import { makeResult } from './fixtures/history/result'
import { benchEntry, pacedEntry, sweepEntry } from './fixtures/render/entries'

const schemas = jsonSchemas()
const ajv = new Ajv({ allErrors: true, strict: false })
ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) })
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
const validate = (file: string) => ajv.compile(schemas[file])

test('schema/ holds exactly what the zod schemas emit (node scripts/run-ts.mjs scripts/json-schemas.ts)', () => {
  expect(fs.readdirSync(SCHEMA_DIR).sort()).toEqual(Object.keys(schemas).sort())
  for (const [file, schema] of Object.entries(schemas))
    expect(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8'))).toEqual(schema)
})

test('every fixture result and history entry validates; a broken one does not', () => {
  const fixtures = path.join(__dirname, 'fixtures')
  const results = [
    makeResult(),
    ...['chain5-result.json', 'tree-result.json'].map(f =>
      JSON.parse(fs.readFileSync(path.join(fixtures, 'generic', f), 'utf8'))
    )
  ]
  const result = validate('result.schema.json')
  for (const r of results)
    expect({ id: r.id, errors: result(r) ? null : result.errors }).toEqual({
      id: r.id,
      errors: null
    })

  const entries = [
    ...importLegacy(path.join(fixtures, 'legacy')),
    ...results.flatMap(r => entriesFromResult(r)),
    benchEntry(1),
    pacedEntry(2),
    sweepEntry(3)
  ]
  expect(entries.length).toBeGreaterThan(100)
  const entry = validate('history-entry.schema.json')
  for (const e of JSON.parse(JSON.stringify(entries)))
    expect({ id: e.id, errors: entry(e) ? null : entry.errors }).toEqual({ id: e.id, errors: null })

  const broken = JSON.parse(JSON.stringify(benchEntry(1)))
  broken.samples = { roundtrip: ['0.1'] }
  delete broken.caseName
  expect(entry(broken)).toBe(false)
  expect(entry.errors!.map(e => e.instancePath || e.params)).toEqual(
    expect.arrayContaining(['/samples/roundtrip/0', { missingProperty: 'caseName' }])
  )
})
