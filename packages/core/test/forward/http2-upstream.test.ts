import { createHash, randomBytes } from 'node:crypto'
import { createSecureServer, type Http2SecureServer } from 'node:http2'
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
})
