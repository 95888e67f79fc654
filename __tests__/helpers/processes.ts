import * as fs from 'node:fs'

/** PIDs of live processes whose environment holds `NAME=value` (read from /proc, like ps e). */
export function pidsWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}`
  return fs
    .readdirSync('/proc')
    .filter(d => /^\d+$/.test(d))
    .filter(pid => {
      try {
        const status = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
        if (/\) Z /.test(status)) return false
        return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(needle)
      } catch {
        return false
      }
    })
    .map(Number)
}

export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

/** Polls until no process carries the marker, or the deadline passes; returns the survivors. */
export async function survivors(name: string, value: string, withinMs: number): Promise<number[]> {
  const until = Date.now() + withinMs
  let pids = pidsWithEnv(name, value)
  while (pids.length > 0 && Date.now() < until) {
    await sleep(200)
    pids = pidsWithEnv(name, value)
  }
  return pids
}
