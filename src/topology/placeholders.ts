/**
 * `${...}` placeholders in a generic service's command and environment, filled in per instance by
 * the engine: only the engine knows ports (local) and names (containers). `$$` is a literal `$`.
 */
const PLACEHOLDER = /\$\$|\$\{([a-z]+(?:-[a-z]+)*)(?::([^}]*))?\}/g

/** The benchmark's OTLP receiver: `${otlp}` its HTTP endpoint URL, `${otlp-grpc}` its gRPC host:port. */
const TRACE_KEYS = ['otlp', 'otlp-grpc']

/** What a placeholder may name, per instance. */
export interface PlaceholderValues {
  /** This instance's listen port; null for a service without one (`${port}` is refused there). */
  port: number | null
  replica: number
  /** host:port of a service, one address for a client (replica 0, or a name that balances). */
  addr(service: string): string
  /** host:port of every replica of a service. */
  addrs(service: string): string[]
  /** The trace receiver's endpoints, when the topology takes per-hop figures from traces. */
  otlp?: { http: string; grpc: string }
}

/**
 * Why `text` cannot be expanded (an unknown placeholder or service, or the receiver's endpoint
 * where no receiver runs: `traced` says whether the topology has `hops: { otlp }`), or null.
 */
export function placeholderProblem(
  text: string,
  services: readonly string[],
  traced = false
): string | null {
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m[0] === '$$') continue
    const [whole, key, service] = m
    if ((key === 'port' || key === 'replica') && service === undefined) continue
    if (TRACE_KEYS.includes(key) && service === undefined) {
      if (traced) continue
      return `${whole} is the trace receiver's endpoint, which runs only with hops: { otlp: {} }`
    }
    if (key !== 'addr' && key !== 'addrs') {
      return `unknown placeholder ${whole} (known: \${port}, \${replica}, \${addr:S}, \${addrs:S}, \${otlp}, \${otlp-grpc}, $$)`
    }
    if (!service || !services.includes(service)) {
      return `${whole} names no service of this topology`
    }
  }
  return null
}

/** The services whose addresses `text` names (`${addr:S}`, `${addrs:S}`), in order. */
export function addressedServices(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].flatMap(([, key, service]) =>
    (key === 'addr' || key === 'addrs') && service ? [service] : []
  )
}

/** Whether `text` asks for the instance's own port (`${port}`). */
export const usesPort = (text: string): boolean =>
  [...text.matchAll(PLACEHOLDER)].some(
    ([whole, key, service]) => whole !== '$$' && key === 'port' && service === undefined
  )

/** `text` with its placeholders filled in; `placeholderProblem` has vouched for it. */
export function expandPlaceholders(text: string, v: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (whole, key: string | undefined, service: string) => {
    if (whole === '$$') return '$'
    if (key === 'port') return String(v.port ?? '')
    if (key === 'replica') return String(v.replica)
    if (key === 'otlp') return v.otlp?.http ?? ''
    if (key === 'otlp-grpc') return v.otlp?.grpc ?? ''
    return key === 'addr' ? v.addr(service) : v.addrs(service).join(' ')
  })
}
