/**
 * Whether a daemon of this Engine API version (`1.44`) has what `since` added. A Swarm service's
 * field the daemon does not know is dropped unread, so what it lacks is asked for first. Pure.
 */
export function apiAtLeast(version: string, since: readonly [number, number]): boolean {
  const [major, minor] = version.split('.').map(Number)
  return major > since[0] || (major === since[0] && minor >= since[1])
}
