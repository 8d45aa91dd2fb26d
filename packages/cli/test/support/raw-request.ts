import { type IncomingHttpHeaders, request } from 'node:http'

/** An answer read whole. */
export interface RawResponse {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/**
 * Sends one HTTP/1.1 request with the request target exactly as given (`/../x`, `%2e%2e`,
 * `http://evil.example/`): `new URL()` would resolve dot-segments before anything is sent.
 * A fresh connection each time, so no keep-alive socket outlives the test.
 *
 * @example
 * const { status } = await rawRequest(serve.origin, '/%2e%2e/secret.txt')
 */
export function rawRequest(
  origin: string,
  path: string,
  init: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path,
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
    })
    req.once('error', reject)
    req.once('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.once('error', reject)
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
    })
    req.end(init.body)
  })
}
