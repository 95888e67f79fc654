import * as fs from 'node:fs'
import * as os from 'node:os'

export type EndpointMode = 'vip' | 'dnsrr'

/**
 * The endpoint mode for services whose topology entry does not set one. A virtual IP needs the
 * kernel's IPVS; without it a VIP never answers, so dnsrr (service name → task addresses) is used.
 * Nothing is published, so dnsrr loses nothing here. IPVS is checked on this machine's kernel,
 * which is the daemon's only when the daemon is local.
 */
export function defaultEndpointMode(): { mode: EndpointMode; why: string } {
  const host = process.env.DOCKER_HOST
  if (host && !host.startsWith('unix://')) {
    return { mode: 'dnsrr', why: `the daemon at ${host} is remote, so its IPVS cannot be checked` }
  }
  const module = `/lib/modules/${os.release()}/kernel/net/netfilter/ipvs`
  if (fs.existsSync('/proc/net/ip_vs') || fs.existsSync(module)) {
    return { mode: 'vip', why: 'this kernel has IPVS' }
  }
  return { mode: 'dnsrr', why: `this kernel has no IPVS (no /proc/net/ip_vs, no ${module})` }
}
