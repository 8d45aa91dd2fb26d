// The client's request comes out of the proxy as it went in: whatever the target does with an
// upload (reads it, answers early, resets, never answers), the proxy never destroys `req` and
// never takes its socket. Dev servers read `req.socket` after the answer: Nuxt's listener
// (listhen, with an http-shutdown-style tracker) sets `req.socket._isIdle` in a `finish`
// handler, and undici, handed `req` itself as the body, set `req.socket = null` and destroyed
// it once the upload was sent: every proxied POST killed `nuxt dev` with a TypeError.
import { createHash } from 'node:crypto'
import { Agent, createServer, type IncomingMessage } from 'node:http'
import { createServer as createH2cServer, type Http2ServerRequest } from 'node:http2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadHttp1, uploadHttp2 } from '../../../../test/reliability/support/upload.js'
import {
  type FinishTracker,
  intactRequest,
  trackLikeListhen,
} from '../../../../test/support/finish-tracker.js'
import { listen, sendHttp2Request, sendRequest } from '../../../../test/support/servers.js'
import { startUploadTargets, type UploadTargets } from '../../../../test/support/upload-targets.js'
import { type CorsDevProxy, createCorsDevProxy, type ProxyResponse, type Routes } from '../../src/index.js'

const SMALL = Buffer.from('{"name":"Ada","tags":["a","b"]}')
const LARGE = 4 * 1024 * 1024
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

interface Front {
  url: string
  tracker: FinishTracker
  /** TCP connections the front end accepted so far. */
  connections(): number
  close(): Promise<void>
}

let targets: UploadTargets
const fronts: Record<'http1' | 'h2c', Front> = {} as never

beforeAll(async () => {
  targets = await startUploadTargets()
  const routes: Routes = {}
  for (const [name, target] of Object.entries(targets)) {
    if (typeof target === 'function') continue
    const timeout = name === 'silent' ? 300 : undefined
    // The plain relay, and the relay with a `proxyRes` hook (its head goes through the hook).
    routes[`/${name}`] = { target: target.url, timeout }
    routes[`/hooked-${name}`] = { target: target.url, timeout, on: { proxyRes: () => undefined } }
  }
  for (const kind of ['http1', 'h2c'] as const) {
    const proxy: CorsDevProxy = createCorsDevProxy(routes, { log: 'silent' })
    const handler = (req: IncomingMessage | Http2ServerRequest, res: ProxyResponse) =>
      proxy.middleware(req, res)
    const server = kind === 'http1' ? createServer(handler) : createH2cServer(handler)
    const tracker = trackLikeListhen(server)
    let connections = 0
    server.on('connection', () => connections++)
    const started = await listen(server)
    fronts[kind] = {
      url: started.url,
      tracker,
      connections: () => connections,
      async close() {
        await proxy.close()
        await started.close()
      },
    }
  }
})

afterAll(async () => {
  await Promise.all(Object.values(fronts).map((front) => front.close()))
  await targets?.close()
})

describe.each(['http1', 'h2c'] as const)('the client request after the proxy (%s)', (kind) => {
  const upload = kind === 'http1' ? uploadHttp1 : uploadHttp2
  let n = 0
  const unique = (path: string) => `${path}?n=${++n}`

  describe.each(['', 'hooked-'])('route %s', (prefix) => {
    it.each(['POST', 'PUT', 'PATCH'])(
      '%s with a small body: the target gets it whole, req is untouched',
      async (method) => {
        const front = fronts[kind]
        const url = unique(`/${prefix}echo/items`)
        const headers = { 'content-type': 'application/json' }
        const res =
          kind === 'http1'
            ? await sendRequest(`${front.url}${url}`, { method, headers, body: SMALL })
            : await sendHttp2Request(`${front.url}${url}`, { ':method': method, ...headers }, SMALL)
        expect(res.status).toBe(200)
        expect(JSON.parse(res.body.toString())).toEqual({ method, length: SMALL.byteLength, sha: sha(SMALL) })
        expect(await front.tracker.seenFor(url)).toEqual(intactRequest(url))
      },
    )

    it('a 4 MiB upload reaches the target whole, req is untouched', async () => {
      const front = fronts[kind]
      const url = unique(`/${prefix}echo/upload`)
      const outcome = await upload(`${front.url}${url}`, LARGE)
      expect(outcome.status).toBe(200)
      expect(JSON.parse(outcome.body)).toMatchObject({ method: 'POST', length: LARGE })
      expect(await front.tracker.seenFor(url)).toEqual(intactRequest(url))
    })

    it.each(['early', 'earlyClose'])(
      'the %s answer to a 4 MiB upload reaches the client, req is untouched',
      async (target) => {
        const front = fronts[kind]
        const url = unique(`/${prefix}${target}/upload`)
        const outcome = await upload(`${front.url}${url}`, LARGE)
        expect(outcome).toMatchObject({ status: 413, body: 'too large\n' })
        expect(await front.tracker.seenFor(url)).toEqual(intactRequest(url))
      },
    )

    it('a target that resets the upload gives 502, req keeps its socket', async () => {
      const front = fronts[kind]
      const url = unique(`/${prefix}reset/upload`)
      const outcome = await upload(`${front.url}${url}`, LARGE)
      expect(outcome.status).toBe(502)
      expect(await front.tracker.seenFor(url)).toEqual(intactRequest(url))
    })

    it('a target that never answers gives 504 on time, req keeps its socket', async () => {
      const front = fronts[kind]
      const url = unique(`/${prefix}silent/upload`)
      const outcome = await upload(`${front.url}${url}`, 256 * 1024)
      expect(outcome.status).toBe(504)
      expect(await front.tracker.seenFor(url)).toEqual(intactRequest(url))
    })
  })
})

describe('the client connection after an early answer (http1)', () => {
  // The rest of the upload is read and dropped, so the same kept-alive connection carries the
  // client's next request: the early answer cost neither the connection nor the next call.
  it.each(['/early', '/earlyClose', '/reset', '/hooked-early', '/hooked-reset'])(
    'a 4 MiB upload to %s, then a POST on the same connection',
    async (path) => {
      const front = fronts.http1
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const before = front.connections()
        const first = await sendRequest(`${front.url}${path}/upload`, {
          method: 'POST',
          body: Buffer.alloc(LARGE, 0x62),
          agent,
        })
        expect([413, 502]).toContain(first.status)
        const second = await sendRequest(`${front.url}/echo/after`, { method: 'POST', body: SMALL, agent })
        expect(second.status).toBe(200)
        expect(JSON.parse(second.body.toString())).toMatchObject({
          length: SMALL.byteLength,
          sha: sha(SMALL),
        })
        expect(front.connections() - before).toBe(1)
      } finally {
        agent.destroy()
      }
    },
  )
})
