import { parse } from 'yaml'
import { z } from 'zod'

/**
 * Router classes GNES 0.0.42–0.0.47 register (gnes/router/__init__.py, plus BlockRouter from
 * gnes/router/map.py, which the blocking cases use). A typo would otherwise surface only as a
 * service that dies after GNES was installed and started.
 */
const ROUTER_CLASSES = [
  'BaseRouter',
  'BaseMapRouter',
  'BaseReduceRouter',
  'BaseTopkReduceRouter',
  'BaseEmbedReduceRouter',
  'BlockRouter',
  'PublishRouter',
  'DocBatchRouter',
  'DocFillReducer',
  'DocTopkReducer',
  'Chunk2DocTopkReducer',
  'ChunkTopkReducer',
  'ConcatEmbedRouter',
  'AvgEmbedRouter'
] as const

const FORM = /^(!?)([A-Za-z]\w*)(?:\s+(\{.*\}))?$/s

/** Why a `model` (GNES `--yaml_path`) is not a known router, or null when it is one. */
function modelProblem(model: string): string | null {
  const m = FORM.exec(model.trim())
  if (!m || (m[3] && !m[1])) {
    return "a router class (BaseRouter) or a YAML tag with parameters ('!BlockRouter {parameters: {sleep_sec: 1}}')"
  }
  if (!(ROUTER_CLASSES as readonly string[]).includes(m[2])) {
    return `unknown router class '${m[2]}' (known: ${ROUTER_CLASSES.join(', ')})`
  }
  if (!m[3]) return null
  let body: unknown
  try {
    body = parse(m[3], { maxAliasCount: 10 })
  } catch (err) {
    return `the parameters of ${m[2]} are not valid YAML: ${(err as Error).message.split('\n')[0]}`
  }
  const keys = body && typeof body === 'object' ? Object.keys(body) : []
  return keys.every(k => ['parameters', 'gnes_config'].includes(k))
    ? null
    : `the parameters of ${m[2]} may only hold parameters and gnes_config, got ${keys.join(', ') || 'no mapping'}`
}

/** A valid `model` taken apart: the router class and the `parameters` of its YAML tag. */
export function routerModel(model: string): {
  className: string
  parameters: Record<string, unknown>
} {
  const m = FORM.exec(model.trim())
  if (!m || modelProblem(model)) throw new Error(`not a router model: ${model}`)
  const body = m[3] ? (parse(m[3], { maxAliasCount: 10 }) as { parameters?: unknown }) : {}
  const parameters = body.parameters
  return {
    className: m[2],
    parameters:
      parameters && typeof parameters === 'object' ? (parameters as Record<string, unknown>) : {}
  }
}

export const RouterModelSchema = z.string().superRefine((model, ctx) => {
  const problem = modelProblem(model)
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem })
})
