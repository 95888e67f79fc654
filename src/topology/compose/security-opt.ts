/**
 * A service's `security_opt` entries. Only `no-new-privileges` is honoured: it takes a privilege
 * away and reads nothing of the host. Every other entry hands the container the host's profiles
 * or lifts a confinement Docker gives it, so it is refused, each entry with its reason. Pure.
 */

/** Go's `strconv.ParseBool`, which the daemon reads the entry's value with. */
const BOOL = new Map<string, boolean>([
  ...['1', 't', 'T', 'TRUE', 'true', 'True'].map(v => [v, true] as const),
  ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map(v => [v, false] as const)
])

/**
 * The no_new_privs bit an entry sets, as Docker reads it: `no-new-privileges` alone is true, and
 * `no-new-privileges:<bool>` or `no-new-privileges=<bool>` says which; undefined for any other.
 */
export function noNewPrivileges(entry: string): boolean | undefined {
  if (entry === 'no-new-privileges') return true
  const value = /^no-new-privileges[:=](.*)$/.exec(entry)?.[1]
  return value === undefined ? undefined : BOOL.get(value)
}

/** The bit the entries leave: the last that sets it wins, as in Docker; undefined when none does. */
export const lastNoNewPrivileges = (entries: readonly string[]): boolean | undefined =>
  entries.map(noNewPrivileges).reduce((bit, b) => b ?? bit, undefined)

const WHY = new Map([
  ['seccomp', 'sets the system-call filter from a file of the host, or (unconfined) lifts it'],
  ['apparmor', "puts the container under a profile of the host's, or (unconfined) under none"],
  ['label', "sets the host's SELinux labels for the container, or (disable) lifts them"],
  ['disable', "lifts the host's SELinux labels from the container"],
  ['systempaths', "unmasks the host's /proc and /sys paths Docker hides"]
])

const REFUSED =
  'it reaches into the host, so runs would not be comparable and the host not safe: only no-new-privileges is honoured; keep it alone (`security_opt: !override [no-new-privileges:true]` in the file with x-latency-bench) or remove the key (`security_opt: !reset []`)'

/** Each entry other than no-new-privileges, refused at its place with what it does or is. */
export function securityOptRefusals(
  entries: unknown,
  where: string
): { where: string; msg: string }[] {
  if (!Array.isArray(entries)) return []
  return entries.flatMap((e, i) => {
    const entry = String(e)
    if (noNewPrivileges(entry) !== undefined) return []
    const at = `${where}.${i}`
    if (/^no-new-privileges[:=]/.test(entry)) {
      const msg = `${JSON.stringify(entry)}: Docker reads its value as neither true nor false: write no-new-privileges:true or no-new-privileges:false`
      return [{ where: at, msg }]
    }
    const why =
      WHY.get(entry.split(/[:=]/)[0]) ?? 'is not a setting the benchmark gives a container'
    // Quoted as JSON: the file's text reaches the message with its line breaks escaped.
    return [{ where: at, msg: `${JSON.stringify(entry)} ${why}: ${REFUSED}` }]
  })
}
