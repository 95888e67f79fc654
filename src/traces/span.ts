import { z } from 'zod'

/**
 * One span as the benchmark keeps it: what per-hop figures need, nothing more. Instants are
 * nanoseconds since the epoch, as OTLP sends them (a float64 of epoch nanoseconds would round to
 * 256 ns, a noticeable share of a sub-millisecond hop).
 */
export interface Span {
  /** 32 lower-case hex digits. */
  traceId: string
  /** 16 lower-case hex digits. */
  spanId: string
  /** Null for a root span. */
  parentSpanId: string | null
  /** The resource's `service.name`, else the span's own name. Untrusted text. */
  service: string
  name: string
  kind: SpanKind
  startNs: bigint
  endNs: bigint
}

/** OTLP's SpanKind, by its enum value. */
const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const
export type SpanKind = (typeof KINDS)[number]

const KIND_NAMES: Record<string, number> = Object.fromEntries(
  KINDS.map((k, i) => [`SPAN_KIND_${k.toUpperCase()}`, i])
)

/** A binary id (protobuf) or its hex spelling (OTLP/JSON), as lower-case hex; '' for none. */
const id = z
  .union([z.instanceof(Uint8Array).transform(b => Buffer.from(b).toString('hex')), z.string()])
  .transform(s => s.toLowerCase())

/** OTLP/JSON sends 64-bit integers as decimal strings; protobuf loaders as strings too. */
const nanos = z
  .union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()])
  .transform(v => BigInt(v))

const SpanSchema = z.object({
  traceId: id.refine(s => /^[0-9a-f]{32}$/.test(s) && !/^0+$/.test(s), 'a trace id'),
  spanId: id.refine(s => /^[0-9a-f]{16}$/.test(s) && !/^0+$/.test(s), 'a span id'),
  parentSpanId: id
    .optional()
    .refine(s => !s || /^[0-9a-f]{16}$/.test(s), 'a span id')
    .transform(s => (s ? s : null)),
  name: z.string().max(1000).default(''),
  kind: z
    .union([z.number().int().min(0).max(5), z.string()])
    .optional()
    .transform(k => (typeof k === 'string' ? (KIND_NAMES[k] ?? 0) : (k ?? 0))),
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos
})

const AttributeSchema = z.object({
  key: z.string(),
  value: z.object({ stringValue: z.string().optional() }).passthrough().optional()
})

/** ExportTraceServiceRequest, loosely: each span is checked on its own, so one bad span costs one. */
const RequestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z
          .object({ attributes: z.array(AttributeSchema).optional() })
          .passthrough()
          .optional(),
        scopeSpans: z
          .array(z.object({ spans: z.array(z.unknown()).optional() }).passthrough())
          .optional()
      })
    )
    .optional()
})

/** The spans a request carries, and how many of its spans were malformed. */
export interface Decoded {
  spans: Span[]
  malformed: number
}

/**
 * The spans of an ExportTraceServiceRequest as a protobuf loader or JSON.parse gives it (ids as
 * bytes or hex). Throws when the request's shape is wrong; a malformed span is counted, not kept.
 */
export function spansOf(request: unknown): Decoded {
  const parsed = RequestSchema.safeParse(request)
  if (!parsed.success) throw new Error('not an ExportTraceServiceRequest')
  const spans: Span[] = []
  let malformed = 0
  for (const rs of parsed.data.resourceSpans ?? []) {
    const named = rs.resource?.attributes?.find(a => a.key === 'service.name')
    const service = named?.value?.stringValue
    for (const scope of rs.scopeSpans ?? []) {
      for (const raw of scope.spans ?? []) {
        const s = SpanSchema.safeParse(raw)
        if (!s.success || s.data.endTimeUnixNano < s.data.startTimeUnixNano) {
          malformed++
          continue
        }
        const d = s.data
        spans.push({
          traceId: d.traceId,
          spanId: d.spanId,
          parentSpanId: d.parentSpanId,
          service: service || d.name,
          name: d.name,
          kind: KINDS[d.kind],
          startNs: d.startTimeUnixNano,
          endNs: d.endTimeUnixNano
        })
      }
    }
  }
  return { spans, malformed }
}
