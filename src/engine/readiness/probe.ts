import * as http from 'node:http'
import * as net from 'node:net'
import type { Waiting } from './types'

const PROBE_INTERVAL_MS = 100
const PROBE_TIMEOUT_MS = 1000

/** One attempt: does the port take a connection (or answer `path` with a 2xx)? */
function attempt(host: string, port: number, path: string | null): Promise<boolean> {
  return new Promise(resolve => {
    if (path === null) {
      const socket = net.connect({ host, port, timeout: PROBE_TIMEOUT_MS })
      const done = (ok: boolean) => {
        socket.destroy()
        resolve(ok)
      }
      socket.once('connect', () => done(true))
      socket.once('error', () => done(false))
      socket.once('timeout', () => done(false))
      return
    }
    const req = http.get({ host, port, path, timeout: PROBE_TIMEOUT_MS, agent: false }, res => {
      res.resume()
      resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300)
    })
    req.once('error', () => resolve(false))
    req.once('timeout', () => req.destroy())
  })
}

/** Resolves once `host:port` takes a connection (or answers `path` with a 2xx), until `until`. */
async function probeUntilReady(
  host: string,
  port: number,
  path: string | null,
  until: Promise<unknown>
): Promise<void> {
  let over = false
  void until.finally(() => (over = true)).catch(() => undefined)
  while (!over) {
    if (await attempt(host, port, path)) return
    await new Promise(r => setTimeout(r, PROBE_INTERVAL_MS))
  }
  return new Promise(() => undefined)
}

/** Probes the instance's port where this host reaches it until it serves (see above) or exits. */
export async function probeInstance(at: Waiting, path: string | null): Promise<void> {
  const host = await at.address()
  // Out of this host's reach (a task on another node): running is as ready as it can tell.
  if (!host || at.instance.port === null) return
  await probeUntilReady(host, at.instance.port, path, at.started.exited)
}
