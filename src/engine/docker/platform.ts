import { resetAdvice } from '../../topology/compose/keys'
import type { ServicePlan } from '../plan/types'

/**
 * Whether the daemon can run each service's `platform`, asked before a deployment creates
 * anything: its OS and architecture must be the daemon's (`docker info`'s OSType and
 * Architecture, the kernel's names mapped to the OCI's). A variant is not checked: the daemon
 * reports none. Pure.
 */

/** The platform a daemon runs containers for, as `docker info` reports it. */
export interface DaemonPlatform {
  os: string
  architecture: string
}

/** The kernel's machine names (uname -m) as OCI architectures; others are the same in both. */
const OCI_ARCH: Record<string, string> = {
  x86_64: 'amd64',
  aarch64: 'arm64',
  armv7l: 'arm',
  armv6l: 'arm',
  i386: '386',
  i686: '386',
  ppc64le: 'ppc64le',
  s390x: 's390x',
  riscv64: 'riscv64'
}

const REMOVE = `or ${resetAdvice('platform')}, and the image is built and run for the daemon`

/** The daemon's platform as a Compose file writes one: `linux/amd64`. */
export const platformName = (daemon: DaemonPlatform): string =>
  `${daemon.os.toLowerCase()}/${OCI_ARCH[daemon.architecture] ?? daemon.architecture}`

/** The first service whose platform the daemon cannot run, in words; null when every one can. */
export function platformProblem(
  services: readonly ServicePlan[],
  daemon: DaemonPlatform
): string | null {
  const runs = platformName(daemon)
  for (const service of services) {
    const platform = service.settings?.platform
    if (!platform) continue
    // A variant (`linux/arm64/v8`) is not checked: the daemon reports none.
    if (platform.split('/').slice(0, 2).join('/') === runs) continue
    return `service '${service.name}' asks for the platform ${platform}, and the Docker daemon runs ${runs}: run it on a daemon of that platform, ${REMOVE}`
  }
  return null
}
