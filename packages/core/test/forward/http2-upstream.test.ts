import { createHash, randomBytes } from 'node:crypto'
import { createSecureServer, type Http2SecureServer } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../../../../test/support/proxy-server.js'
import { captureLogSink } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'

/**
 * `http2: true` on a route: the proxy offers HTTP/2 to an https target by ALPN, and the target
 * sees HTTP/2 (`req.httpVersion` 2.0) while the browser side is unchanged; without it, or when
 * the target only speaks HTTP/1.1, the hop is HTTP/1.1. Bodies go both ways whole, and the
 * debug line shows the upstream hop's protocol.
 */

let target: Http2SecureServer
let targetOrigin: string
const seen: string[] = []
/** HTTP/2 sessions and HTTP/1.1 connections the target accepted. */
let sessions = 0
let connections = 0

beforeAll(async () => {
  const { cert, key } = await localhostCertificate()
  target = createSecureServer({ cert, key, allowHTTP1: true }, (req, res) => {
    seen.push(req.httpVersion)
    const hash = createHash('sha256')
    let bytes = 0
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk)
      bytes += chunk.length
    })
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ version: req.httpVersion, path: req.url, bytes, sha256: hash.digest('hex') }))
    })
  })
  target.on('session', () => sessions++)
  target.on('secureConnection', () => connections++)
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  targetOrigin = `https://127.0.0.1:${(target.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => target.close(resolve))
})

async function through(proxy: RunningProxy, path: string, body?: Buffer) {
  const answer = await request(`${proxy.url}${path}`, { method: body ? 'POST' : 'GET', body })
  return answer.body.json() as Promise<{ version: string; path: string; bytes: number; sha256: string }>
}

describe('http2: true', () => {
  it('speaks HTTP/2 to an https target that offers it, bodies whole both ways', async () => {
    const proxy = await serveProxy(
      { '/api': { target: targetOrigin, secure: false, http2: true } },
      { log: 'silent' },
    )
    try {
      expect(await through(proxy, '/api/one')).toMatchObject({ version: '2.0', path: '/one' })
      const upload = randomBytes(3 * 1024 * 1024)
      const echoed = await through(proxy, '/api/upload', upload)
      expect(echoed).toMatchObject({
        version: '2.0',
        bytes: upload.length,
        sha256: createHash('sha256').update(upload).digest('hex'),
      })
      // Many requests in flight at once share the HTTP/2 connection and all arrive.
      const many = await Promise.all(Array.from({ length: 50 }, (_, i) => through(proxy, `/api/n${i}`)))
      expect(many.map((answer) => answer.path)).toEqual(Array.from({ length: 50 }, (_, i) => `/n${i}`))
      expect(new Set(many.map((answer) => answer.version))).toEqual(new Set(['2.0']))
    } finally {
      await proxy.close()
    }
  })

  it('stays on HTTP/1.1 without it', async () => {
    const proxy = await serveProxy({ '/api': { target: targetOrigin, secure: false } }, { log: 'silent' })
    try {
      expect(await through(proxy, '/api/one')).toMatchObject({ version: '1.1', path: '/one' })
    } finally {
      await proxy.close()
    }
  })

  it('shows the upstream protocol in the debug line', async () => {
    const sink = captureLogSink()
    const proxy = await serveProxy(
      { '/api': { target: targetOrigin, secure: false, http2: true } },
      { log: 'debug', logger: sink },
    )
    try {
      await through(proxy, '/api/logged')
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(sink.text()).toMatch(/GET \/api\/logged → https:\/\/127\.0\.0\.1:\d+\/logged over h2 200/)
    } finally {
      await proxy.close()
    }
  })

  it('carries a burst of requests on one connection, uploads beside it on their own', async () => {
    const proxy = await serveProxy(
      { '/api': { target: targetOrigin, secure: false, http2: true } },
      { log: 'silent' },
    )
    try {
      sessions = 0
      connections = 0
      // Before the multiplexed pool, 50 requests in flight opened 50 connections. Now a burst
      // opens at most 4 (clients still connecting count as busy), and the next burst none.
      const burst = await Promise.all(Array.from({ length: 50 }, (_, i) => through(proxy, `/api/b${i}`)))
      expect(burst.map((answer) => answer.path)).toEqual(Array.from({ length: 50 }, (_, i) => `/b${i}`))
      expect(sessions).toBeGreaterThanOrEqual(1)
      expect(sessions).toBeLessThanOrEqual(4)
      const opened = sessions
      await Promise.all(Array.from({ length: 50 }, (_, i) => through(proxy, `/api/c${i}`)))
      expect(sessions).toBe(opened)
      expect(connections).toBe(opened)
      // Streamed uploads and GETs at once: the uploads take connections of their own, and
      // nothing waits for them.
      const upload = randomBytes(256 * 1024)
      const sha256 = createHash('sha256').update(upload).digest('hex')
      const mixed = await Promise.all([
        ...Array.from({ length: 4 }, () => through(proxy, '/api/up', upload)),
        ...Array.from({ length: 20 }, (_, i) => through(proxy, `/api/m${i}`)),
      ])
      expect(mixed.slice(0, 4).map((answer) => answer.sha256)).toEqual(Array(4).fill(sha256))
      expect(mixed.slice(4).every((answer) => answer.version === '2.0')).toBe(true)
      expect(sessions).toBeLessThanOrEqual(opened + 4)
    } finally {
      await proxy.close()
    }
  })

  it('answers a burst to a target that declines HTTP/2, one request per connection', async () => {
    const { cert, key } = await localhostCertificate()
    const h1 = createHttpsServer({ cert, key }, (req, res) => {
      // A slow first answer: requests queued behind it on one connection would wait for it.
      setTimeout(
        () => res.end(JSON.stringify({ version: req.httpVersion, path: req.url })),
        req.url === '/slow' ? 2000 : 0,
      )
    })
    await new Promise<void>((resolve) => h1.listen(0, '127.0.0.1', resolve))
    const origin = `https://127.0.0.1:${(h1.address() as AddressInfo).port}`
    const proxy = await serveProxy(
      { '/api': { target: origin, secure: false, http2: true } },
      { log: 'silent' },
    )
    try {
      await through(proxy, '/api/first')
      let slowDone = false
      const slow = through(proxy, '/api/slow').finally(() => {
        slowDone = true
      })
      const quick = await Promise.all(Array.from({ length: 20 }, (_, i) => through(proxy, `/api/q${i}`)))
      expect(quick.every((answer) => answer.version === '1.1')).toBe(true)
      // Not pipelined behind the slow answer (2 s): the quick ones do not wait for it.
      expect(slowDone).toBe(false)
      expect(await slow).toMatchObject({ path: '/slow' })
    } finally {
      await proxy.close()
      await new Promise((resolve) => h1.close(resolve))
    }
  })

  it.each([
    ['', {}],
    [' (with followRedirects)', { followRedirects: true }],
  ])('keeps a Node target answering after many downloads the clients broke off%s', async (_name, extra) => {
    // undici resets an aborted stream with NO_ERROR, and Node's server then keeps the stream
    // (and the answer it buffered) until the session closes: past 10 MB it refused every new
    // stream with ENHANCE_YOUR_CALM (13 broken-off 1 MiB downloads were enough) and 502s followed.
    const { cert, key } = await localhostCertificate()
    const chunk = Buffer.alloc(1024 * 1024, 7)
    let open = 0
    const big = createSecureServer({ cert, key }, (req, res) => {
      open++
      res.stream.once('close', () => open--)
      if (req.url === '/small') {
        res.end('small')
        return
      }
      // 4 MiB, written as fast as the window lets.
      let left = 4
      const pump = (): void => {
        while (left > 0) {
          left--
          if (left === 0) res.end(chunk)
          else if (!res.write(chunk)) {
            res.once('drain', pump)
            return
          }
        }
      }
      pump()
    })
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve))
    const origin = `https://127.0.0.1:${(big.address() as AddressInfo).port}`
    const proxy = await serveProxy(
      { '/api': { target: origin, secure: false, http2: true, ...extra } },
      { log: 'silent' },
    )
    try {
      for (let round = 0; round < 30; round++) {
        const controller = new AbortController()
        const answer = await request(`${proxy.url}/api/big`, { signal: controller.signal })
        await new Promise((resolve) => answer.body.once('data', resolve))
        controller.abort()
        await answer.body.text().catch(() => undefined)
      }
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const answer = await request(`${proxy.url}/api/small`)
          await answer.body.text()
          return answer.statusCode
        }),
      )
      expect(statuses).toEqual(Array(20).fill(200))
      // The target's side of the broken-off streams goes with the connections replaced.
      await expect.poll(() => open, { timeout: 20_000 }).toBeLessThanOrEqual(4)
    } finally {
      await proxy.close()
      await new Promise((resolve) => big.close(resolve))
    }
  })

  it('sends a GET again on a new connection when the target refuses its stream, never a POST', async () => {
    const { cert, key } = await localhostCertificate()
    const { constants } = await import('node:http2')
    let refuse = 0
    let refusing = 0
    const refuser = createSecureServer({ cert, key })
    refuser.on('stream', (stream, headers) => {
      // Node reports its own refusal as an error of the stream.
      stream.on('error', () => undefined)
      if (refuse > 0) {
        refuse--
        refusing++
        stream.close(constants.NGHTTP2_REFUSED_STREAM)
        return
      }
      stream.respond({ ':status': 200 })
      stream.end(`${headers[':method']} answered`)
    })
    let refuserSessions = 0
    refuser.on('session', () => refuserSessions++)
    await new Promise<void>((resolve) => refuser.listen(0, '127.0.0.1', resolve))
    const origin = `https://127.0.0.1:${(refuser.address() as AddressInfo).port}`
    const sink = captureLogSink()
    const proxy = await serveProxy(
      { '/api': { target: origin, secure: false, http2: true } },
      { logger: sink, log: 'debug' },
    )
    try {
      const first = await request(`${proxy.url}/api/warm`)
      expect(await first.body.text()).toBe('GET answered')
      const sessionsBefore = refuserSessions
      refuse = 1
      const get = await request(`${proxy.url}/api/get`)
      expect(get.statusCode).toBe(200)
      expect(await get.body.text()).toBe('GET answered')
      expect(refusing).toBe(1)
      // The retry went on a new connection.
      expect(refuserSessions).toBe(sessionsBefore + 1)
      expect(sink.lines.some((line) => line.message.includes('refused the stream'))).toBe(true)
      refuse = 1
      const post = await request(`${proxy.url}/api/post`, { method: 'POST', body: 'x' })
      expect(post.statusCode).toBe(502)
      await post.body.text()
    } finally {
      await proxy.close()
      await new Promise((resolve) => refuser.close(resolve))
    }
  })
})
