import { z } from 'zod'
import { name, value } from './fields'

/**
 * A load of unary gRPC calls (`load: { service, grpc: {...} }`), the other kind of a generic
 * topology's load beside HTTP's. docs/topology.md documents every field.
 */

const ident = '[A-Za-z_][A-Za-z0-9_]*'

/** gRPC's status codes, OK (0) to UNAUTHENTICATED (16). */
const statusCode = z.number().int().min(0).max(16)

/**
 * An ASCII metadata key as gRPC allows it: lower case, not reserved (`grpc-`), not binary
 * (`-bin`, whose values would be bytes), and not a pseudo-header or one the transport sets.
 */
const metadataKey = z
  .string()
  .regex(/^[0-9a-z_.-]{1,64}$/, 'a metadata key of lower-case letters, digits, _, . or -')
  .refine(k => !k.startsWith('grpc-'), 'grpc- keys are reserved for gRPC itself')
  .refine(k => !k.endsWith('-bin'), 'binary (-bin) metadata is not supported')
  .refine(
    k => !['content-type', 'te', 'user-agent', 'host'].includes(k),
    'set by the transport, not by the load'
  )

/** A metadata value: printable ASCII, as gRPC's ASCII metadata allows. */
const metadataValue = value.pipe(
  z.string().regex(/^[\x20-\x7e]*$/, 'printable ASCII (gRPC ASCII metadata)')
)

export const GrpcCallSchema = z
  .object({
    /** The .proto file that defines the call, relative to the topology file. */
    proto: z.string().min(1).max(1024).optional(),
    /** Ask the service for its definitions (gRPC server reflection) instead of a file. */
    reflection: z.literal(true).optional(),
    /** The method, as `package.Service/Method`. */
    call: z
      .string()
      .regex(
        new RegExp(`^${ident}(\\.${ident})*/${ident}$`),
        "the call as 'package.Service/Method'"
      ),
    /** The request message as JSON (proto3's JSON mapping, field names as in the .proto). */
    data: z.record(z.unknown()).default({}),
    metadata: z.record(metadataKey, metadataValue).default({}),
    /** Status codes that count as success (default OK). */
    status: z.array(statusCode).min(1).default([0]),
    /** Each call's deadline. */
    deadlineSec: z.number().positive().max(300).default(10)
  })
  .strict()
  .refine(g => (g.proto === undefined) !== (g.reflection === undefined), {
    message: 'exactly one of proto (a .proto file) or reflection: true'
  })
export type GrpcCall = z.infer<typeof GrpcCallSchema>

export const GrpcLoadSchema = z
  .object({
    /** The service the calls enter; they go to its first replica. */
    service: name,
    grpc: GrpcCallSchema
  })
  .strict()
export type GrpcLoad = z.infer<typeof GrpcLoadSchema>
