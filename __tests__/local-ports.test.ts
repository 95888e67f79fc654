/**
 * The local engine's ports: the kernel picks a free port at random for each probe, so across the
 * deployments of one process (a paired run's two sides) it would repeat some; freePorts never does.
 */
import * as net from 'node:net'
import { freePorts } from '../src/engine/local/ports'

describe('freePorts', () => {
  it('never hands out a port twice in one process, across 40 deployments of 50 ports', async () => {
    const all: number[] = []
    for (let i = 0; i < 40; i++) all.push(...(await freePorts(50)))
    expect(all).toHaveLength(2000)
    expect(new Set(all).size).toBe(2000)
  })

  it('never hands out a port twice to calls made at once, as both sides of a pair start', async () => {
    const all = (await Promise.all(Array.from({ length: 10 }, () => freePorts(50)))).flat()
    expect(all).toHaveLength(500)
    expect(new Set(all).size).toBe(500)
  })

  it('returns ports that are free to bind on loopback', async () => {
    for (const port of await freePorts(5)) {
      const s = net.createServer()
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject)
        s.listen(port, '127.0.0.1', () => resolve())
      })
      await new Promise(r => s.close(r))
    }
  })
})
