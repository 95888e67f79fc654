/**
 * What does the HTTP load driver itself cost? Paces requests at each rate against a node:http
 * server in its own process that answers at once, and prints the p50/p99 of `c:lag` (how late
 * requests went out), of `latency:sent` (the loopback round trip as the driver measures it, the
 * floor of any HTTP figure) and of `latency`, and the driver process's CPU time per request (its
 * ticker thread included). Each rate is warmed up for one second first, on the same connections.
 * For scale, the last line is a bare node:http client on the same machine: one keep-alive GET after
 * another, no schedule, no records.
 *
 *   npm run bench:http-driver -- [--rates 100,500,1000] [--seconds 5]
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import * as http from 'node:http'
import * as os from 'node:os'
import { parseArgs } from 'node:util'
import { keepAliveAgent, sendPaced, type HttpTarget } from '../src/client/http-load'
import { pacedHttpSamples } from '../src/metrics/http'
import { quantile } from '../src/stats/sample'
import { loadAverage } from './machine'

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '100,500,1000' },
    seconds: { type: 'string', default: '5' }
  }
})
const rates = values.rates.split(',').map(Number)
const seconds = Number(values.seconds)

const ms = (xs: number[], q: number): string =>
  (
    quantile(
      [...xs].sort((a, b) => a - b),
      q
    ) * 1000
  )
    .toFixed(3)
    .padStart(8)

async function bareClosedLoop(url: string, agent: http.Agent, count: number) {
  const get = () =>
    new Promise<void>((resolve, reject) =>
      http.get(url, { agent }, res => res.resume().on('end', resolve)).on('error', reject)
    )
  const roundtrips: number[] = []
  const cpu = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    const from = performance.now()
    await get()
    roundtrips.push((performance.now() - from) / 1000)
  }
  const used = process.cpuUsage(cpu)
  return { count, roundtrips, cpuPerRequest: (used.user + used.system) / count }
}

async function main(): Promise<void> {
  const server = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((q, s) => s.end('ok'))
         .listen(0, '127.0.0.1', function () { console.log(this.address().port) })`
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  )
  const agent = keepAliveAgent()
  try {
    const [port] = (await once(server.stdout!, 'data')) as [Buffer]
    const target: HttpTarget = {
      url: `http://127.0.0.1:${String(port).trim()}/`,
      method: 'GET',
      headers: {},
      body: null,
      status: [200],
      timeoutMs: 10_000,
      keep: 'none'
    }
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, ${seconds} s per rate after a 1 s warm-up; load average before: ${loadAverage()}`
    )
    console.log(
      '  rate  requests  errors   c:lag p50     p99   latency:sent p50     p99   latency p50     p99   CPU µs/request'
    )
    for (const rate of rates) {
      await sendPaced(target, rate, Math.ceil(rate), { agent })
      const count = Math.round(rate * seconds)
      const cpu = process.cpuUsage()
      const records = await sendPaced(target, rate, count, { agent })
      const used = process.cpuUsage(cpu)
      const { samples, errors } = pacedHttpSamples(records, null)
      console.log(
        [
          String(rate).padStart(6),
          String(count).padStart(9),
          String(errors).padStart(7),
          `${ms(samples['c:lag'], 0.5)} ${ms(samples['c:lag'], 0.99)}`,
          `       ${ms(samples['latency:sent'], 0.5)} ${ms(samples['latency:sent'], 0.99)}`,
          `  ${ms(samples.latency, 0.5)} ${ms(samples.latency, 0.99)}`,
          ((used.user + used.system) / count).toFixed(1).padStart(16)
        ].join(' ')
      )
    }
    const bare = await bareClosedLoop(target.url, agent, 1000 * seconds)
    console.log(
      `bare node:http closed loop, ${bare.count} requests: round trip p50 ${ms(bare.roundtrips, 0.5)} p99 ${ms(bare.roundtrips, 0.99)}, CPU ${bare.cpuPerRequest.toFixed(1)} µs/request`
    )
    console.log(`(milliseconds) load average after: ${loadAverage()}`)
  } finally {
    agent.destroy()
    server.kill()
  }
}

main().catch(e => {
  console.error(e)
  process.exit(1)
})
