import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as zlib from 'node:zlib'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refusedUrl } from '../../../test/support/refused-port.js'
import { listen, type StartedServer } from '../../../test/support/servers.js'
import { createNextProxy, type NextProxyHandler } from '../src/create-next-proxy.js'

// What `proxy.ts` answers for a route, as Next hands it a Request, against a real backend: the
// cases Next's `rewrites` get wrong (measured on Next 16.4).
const PAGE = 'http://127.0.0.1:3000'
const held = new Set<ServerResponse>()
let backend: StartedServer<ReturnType<typeof createServer>>
let down: string
let proxy: NextProxyHandler

/** A JSON item of about 4 kB, what a real API answers and json-server compresses (over 1 kB). */
const ITEM = {
  id: 3,
  title: 'a todo with a long history',
  notes: Array.from({ length: 60 }, (_, index) => ({ index, text: `note ${index}: compressed on the way` })),
}
const ITEM_JSON = JSON.stringify(ITEM)

/** Compresses as express's `compression` (json-server's) does: the client's first coding it knows. */
function compressed(body: string, acceptEncoding: string): [string, Buffer] {
  const accepted = acceptEncoding.split(',').map((part) => part.split(';')[0]?.trim())
  if (accepted.includes('br')) return ['br', zlib.brotliCompressSync(body)]
  if (accepted.includes('gzip')) return ['gzip', zlib.gzipSync(body)]
  if (accepted.includes('deflate')) return ['deflate', zlib.deflateSync(body)]
  return ['identity', Buffer.from(body)]
}

/**
 * What Next does with a Response proxy.ts returns (Next 15 and 16: `ipcForbiddenHeaders`,
 * `FORBIDDEN_HEADERS`): `Content-Encoding` and `Content-Length` dropped, the body's bytes passed
 * on as they are (and compressed again by Next). The page reads these bytes as the answer.
 */
async function asNextPassesIt(res: Response | undefined): Promise<{ headers: Headers; text: string }> {
  const headers = new Headers(res?.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  return { headers, text: Buffer.from(await (res as Response).arrayBuffer()).toString('utf8') }
}

beforeAll(async () => {
  backend = await listen(
    createServer((req, res) => {
      if (req.url === '/events') {
        // The first event now; the stream stays open until the test has read it.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        res.write('data: first\n\n')
        held.add(res)
      } else if (req.url === '/cookie') {
        res.setHeader('set-cookie', 'session=abc; Domain=api.backend.example; Path=/; HttpOnly')
        res.end('set')
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: `${backend.url}/landing` })
        res.end()
      } else if (req.url === '/moved-here') {
        res.writeHead(302, { location: '/landing' })
        res.end()
      } else if (req.url === '/slow') {
        held.add(res)
      } else if (req.url?.startsWith('/todos/')) {
        const [encoding, body] = compressed(ITEM_JSON, String(req.headers['accept-encoding'] ?? ''))
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': body.length,
          vary: 'accept-encoding',
          ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        })
        res.end(body)
      } else if (req.url === '/gzip-events') {
        // An event stream compressed as `compression` does with res.flush(): each event flushed.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' })
        const gzip = zlib.createGzip()
        gzip.pipe(res)
        gzip.write('data: first\n\n')
        gzip.flush()
        held.add(res)
      } else if (req.url === '/accept-encoding') {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () =>
          res.end(`${req.headers['accept-encoding']}${chunks.length > 0 ? ` ${Buffer.concat(chunks)}` : ''}`),
        )
      } else if (req.url === '/unknown-coding') {
        res.writeHead(200, { 'content-encoding': 'compress' })
        res.end('????')
      } else res.end(`backend ${req.method} ${req.url}`)
    }),
  )
  down = await refusedUrl()
  proxy = createNextProxy(
    {
      '/api': backend.url,
      '/slow-api': { target: backend.url, timeout: 300 },
      '/down': down,
    },
    { log: 'silent' },
  )
})

afterAll(async () => {
  await proxy.handler.close()
  for (const res of held) res.destroy()
  await backend.close()
})

describe('createNextProxy', () => {
  it("leaves Next's own paths to Next (undefined) and answers a route's", async () => {
    expect(await proxy(new Request(`${PAGE}/about`))).toBeUndefined()
    expect(await proxy(new Request(`${PAGE}/api2/x`))).toBeUndefined()
    const res = await proxy(new Request(`${PAGE}/api/items?x=1`))
    expect(res?.status).toBe(200)
    expect(await res?.text()).toBe('backend GET /items?x=1')
  })

  it("hands the page an event stream's first event while the stream is still open", async () => {
    const res = await proxy(new Request(`${PAGE}/api/events`))
    expect(res?.headers.get('content-type')).toBe('text/event-stream')
    const reader = (res as Response).body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n')
    // The backend has not ended it: the event came through on its own.
    expect([...held].some((held) => !held.writableEnded)).toBe(true)
    await reader.cancel()
  })

  it("drops the backend's Domain from Set-Cookie, so the page's origin keeps the cookie", async () => {
    const res = await proxy(new Request(`${PAGE}/api/cookie`))
    expect(res?.headers.getSetCookie()).toEqual(['session=abc; Path=/; HttpOnly'])
  })

  it("points an absolute Location at the backend back at the page's origin, under the route", async () => {
    const res = await proxy(new Request(`${PAGE}/api/moved`, { redirect: 'manual' }))
    expect(res?.status).toBe(302)
    expect(res?.headers.get('location')).toBe(`${PAGE}/api/landing`)
  })

  it("makes a relative Location absolute on the page's origin, under the route (Next's adapter parses it without a base)", async () => {
    const res = await proxy(new Request(`${PAGE}/api/moved-here`, { redirect: 'manual' }))
    expect(res?.status).toBe(302)
    expect(res?.headers.get('location')).toBe(`${PAGE}/api/landing`)
  })

  it('answers a dead backend 502 with the reason, not an empty 500', async () => {
    const res = await proxy(new Request(`${PAGE}/down/items`))
    expect(res?.status).toBe(502)
    expect(await res?.text()).toContain('connection refused')
  })

  it("applies the route's own timeout: 504 after it, whatever Next's would be", async () => {
    const res = await proxy(new Request(`${PAGE}/slow-api/slow`))
    expect(res?.status).toBe(504)
    expect(await res?.text()).toContain('300 ms')
  })

  it('stops at load on a misspelt option, naming it, and refuses a ws route (it needs the custom server)', () => {
    expect(() => createNextProxy({ '/api': { target: backend.url, changeOrgin: true } as never })).toThrow(
      /changeOrgin/,
    )
    expect(() => createNextProxy({ '/live': { target: backend.url, ws: true } })).toThrow(CorsDevProxyError)
  })

  it.each(['gzip, deflate, br, zstd', 'gzip, deflate, br', 'gzip', 'deflate', 'br'])(
    'hands Next a compressed 4 kB JSON item decoded (Accept-Encoding: %s), as Next passes a proxy.ts body on without its Content-Encoding',
    async (acceptEncoding) => {
      const res = await proxy(
        new Request(`${PAGE}/api/todos/3`, { headers: { 'accept-encoding': acceptEncoding } }),
      )
      expect(res?.status).toBe(200)
      expect(res?.headers.get('content-encoding')).toBeNull()
      expect(res?.headers.get('content-length')).toBeNull()
      const passed = await asNextPassesIt(res)
      expect(passed.headers.get('content-type')).toBe('application/json')
      expect(JSON.parse(passed.text)).toEqual(ITEM)
    },
  )

  it('decodes a compressed event stream as it streams: the first event arrives while the stream is open', async () => {
    const res = await proxy(
      new Request(`${PAGE}/api/gzip-events`, { headers: { 'accept-encoding': 'gzip' } }),
    )
    expect(res?.headers.get('content-encoding')).toBeNull()
    const reader = (res as Response).body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n')
    await reader.cancel()
  })

  it('asks the target only for the codings it can decode, and says so for one it cannot', async () => {
    const asked = await proxy(
      new Request(`${PAGE}/api/accept-encoding`, {
        headers: { 'accept-encoding': 'gzip, compress;q=0.5, br' },
      }),
    )
    expect(await asked?.text()).toBe('gzip, br')
    // The request rebuilt with the narrower list keeps its body.
    const upload = await proxy(
      new Request(`${PAGE}/api/accept-encoding`, {
        method: 'POST',
        body: 'the upload',
        headers: { 'accept-encoding': 'compress, gzip' },
      }),
    )
    expect(await upload?.text()).toBe('gzip the upload')
    const unknown = await proxy(new Request(`${PAGE}/api/unknown-coding`))
    expect(unknown?.status).toBe(502)
    expect(await unknown?.text()).toContain('Content-Encoding: compress')
  })

  it('hands Next a recorded, then replayed, compressed answer decoded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cdp-next-recordings-'))
    const recording = createNextProxy(
      { '/api': { target: backend.url, record: true } },
      { log: 'silent', recordings: { dir } },
    )
    const replaying = createNextProxy(
      { '/api': { target: down, replay: 'only' } },
      { log: 'silent', recordings: { dir } },
    )
    try {
      const live = await recording(
        new Request(`${PAGE}/api/todos/3`, { headers: { 'accept-encoding': 'br' } }),
      )
      expect(JSON.parse((await asNextPassesIt(live)).text)).toEqual(ITEM)
      // The recording is written once the answer ended, atomically: its lock and temp file show in
      // the folder before the recording itself (beside a busy process the replay came between the
      // two), so this waits for the .json.
      await expect
        .poll(async () =>
          (await readdir(join(dir, 'api')).catch(() => [])).filter((name) => name.endsWith('.json')),
        )
        .toHaveLength(1)
      const replayed = await replaying(
        new Request(`${PAGE}/api/todos/3`, { headers: { 'accept-encoding': 'br' } }),
      )
      expect(replayed?.headers.get('x-cors-dev-proxy-replayed')).not.toBeNull()
      expect(replayed?.headers.get('content-encoding')).toBeNull()
      expect(JSON.parse((await asNextPassesIt(replayed)).text)).toEqual(ITEM)
    } finally {
      await recording.handler.close()
      await replaying.handler.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it.each([
    ['on.proxyReq', { on: { proxyReq: () => {} } }, "routes['/api'].on.proxyReq", /headers/],
    ['ws', { ws: true }, "routes['/api'].ws", /createNextServer/],
  ])(
    "refuses %s in proxy.ts's words, with the custom server named and the route's own target in the fix",
    (_name, extra, option, advice) => {
      let error: unknown
      try {
        createNextProxy(
          { '/api': { target: 'http://localhost:3001/v2', ...extra } as never },
          { log: 'silent' },
        )
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(CorsDevProxyError)
      expect((error as CorsDevProxyError).option).toBe(option)
      expect((error as Error).message).toContain('proxy.ts')
      expect((error as Error).message).toContain('createNextServer')
      expect((error as Error).message).toMatch(advice)
      expect((error as Error).message).toContain(
        "Fix it like this: { '/api': { target: 'http://localhost:3001/v2'",
      )
      expect((error as Error).message).not.toContain('localhost:3000')
    },
  )
})
