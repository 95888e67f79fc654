import * as net from 'node:net'

/**
 * Every port this process has handed out. A port is free again for the kernel as soon as its probe
 * closes, but a service binds it only a second or two later, when its interpreter has started: a
 * second deployment started in that gap (a paired run's other side) could be given the same port,
 * and two frontends pushing to one port cross their routers' answers and hang the stream. A port
 * is never handed out twice by one process; a suite uses a few dozen of the 28,000 ephemeral ones.
 */
const handedOut = new Set<number>()

/** A loopback port the kernel considers free, held open until `close`. */
function probe(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => resolve(s))
  })
}

const portOf = (s: net.Server): number => (s.address() as net.AddressInfo).port

/**
 * Asks the kernel for `count` distinct free loopback ports that this process has not handed out
 * before. Every probe stays open until all ports are chosen, so the kernel cannot repeat one; a
 * port is marked handed out as it is chosen, before its probe closes, so that a call running at
 * the same time (both sides of a pair start at once) cannot take it in between.
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: net.Server[] = []
  const chosen: number[] = []
  try {
    for (let tries = 0; chosen.length < count; tries++) {
      if (tries >= count + 1000) {
        throw new Error(`no free loopback port left that this process has not used`)
      }
      const s = await probe()
      held.push(s)
      if (!handedOut.has(portOf(s))) {
        chosen.push(portOf(s))
        handedOut.add(portOf(s))
      }
    }
  } finally {
    await Promise.all(held.map(s => new Promise(r => s.close(r))))
  }
  return chosen
}
