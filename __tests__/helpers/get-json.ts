import * as http from 'node:http'

/** GET / of host:port, its body parsed as JSON; a fresh connection, a 10 s deadline. */
export function getJson<T>(host: string, port: number): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get({ host, port, path: '/', agent: false, timeout: 10_000 }, res => {
        let text = ''
        res.on('data', d => (text += d))
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as T)
          } catch (err) {
            reject(err)
          }
        })
      })
      .on('timeout', function (this: http.ClientRequest) {
        this.destroy(new Error(`no answer from ${host}:${port} within 10 s`))
      })
      .on('error', reject)
  })
}
