import * as net from 'node:net'

/**
 * Asks the kernel for `count` distinct free loopback ports. All sockets stay open until every
 * port is chosen, so the kernel cannot hand out the same port twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const s = net.createServer()
          s.once('error', reject)
          s.listen(0, '127.0.0.1', () => resolve(s))
        })
    )
  )
  const ports = servers.map(s => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map(s => new Promise(r => s.close(r))))
  return ports
}
