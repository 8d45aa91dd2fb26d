import { createServer } from 'node:http'
import { runInNewContext } from 'node:vm'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { listen, sendRequest } from '../../../../test/support/servers.js'
import { CAN_DECODE_ZSTD, decodeContent } from '../../src/http/content-decoding.js'

// `{"name":"zstd","ok":true}` compressed with Node 24's zlib.zstdCompressSync: a fixed frame, so
// the test needs no compressor on Node 20 (where zlib has no zstd at all).
const ZSTD_JSON = Buffer.from('KLUv/SAZyQAAeyJuYW1lIjoienN0ZCIsIm9rIjp0cnVlfQ==', 'base64')
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

describe('decodeContent', () => {
  it('knows zstd exactly where Node has zlib.zstdDecompressSync (22.15+, 23.8+)', () => {
    expect(CAN_DECODE_ZSTD).toBe(major > 23 || (major === 23 && minor >= 8) || (major === 22 && minor >= 15))
  })

  it.each([
    ['', Buffer.from('{}'), '{}'],
    ['identity', Buffer.from('{}'), '{}'],
    [' GZIP ', gzipSync('{}'), '{}'],
  ])('undoes %j', (encoding, body, text) => {
    expect(String(decodeContent(body, encoding, 1024))).toBe(text)
  })

  it('undoes zstd where it can, else says undecodable', () => {
    const decoded = decodeContent(ZSTD_JSON, 'zstd', 1024)
    if (CAN_DECODE_ZSTD) expect(String(decoded)).toBe('{"name":"zstd","ok":true}')
    else expect(decoded).toBe('undecodable')
  })

  it('stops at the limit and refuses stacked or unknown encodings', () => {
    expect(decodeContent(gzipSync(Buffer.alloc(4096)), 'gzip', 1024)).toBe('too-large')
    expect(decodeContent(gzipSync('{}'), 'gzip, br', 1024)).toBe('undecodable')
    expect(decodeContent(Buffer.from('x'), 'compress', 1024)).toBe('undecodable')
  })
})

describe('a zstd answer through transformResponse and jsonp', () => {
  async function start() {
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' })
        res.end(ZSTD_JSON)
      }),
    )
    cleanup.push(target.close)
    const proxy = await serveProxy(
      {
        '/t': {
          target: target.url,
          transformResponse: (body) => ({ ...JSON.parse(String(body)), seen: true }),
        },
        '/j': { target: target.url, jsonp: true },
      },
      { log: 'silent' },
    )
    cleanup.push(proxy.close)
    return proxy
  }

  it('is decoded where Node has zstd; else transformResponse answers 502 naming it and jsonp passes it on', async () => {
    const proxy = await start()
    const transformed = await sendRequest(`${proxy.url}/t/x`)
    const wrapped = await sendRequest(`${proxy.url}/j/x?callback=cb`)
    if (CAN_DECODE_ZSTD) {
      expect(transformed.status).toBe(200)
      expect(transformed.headers['content-encoding']).toBeUndefined()
      expect(JSON.parse(String(transformed.body))).toEqual({ name: 'zstd', ok: true, seen: true })
      expect(wrapped.status).toBe(200)
      const calls: unknown[] = []
      runInNewContext(String(wrapped.body), { cb: (value: unknown) => calls.push(value) })
      expect(calls).toEqual([{ name: 'zstd', ok: true }])
    } else {
      expect(transformed.status).toBe(502)
      expect(String(transformed.body)).toContain('cannot decode Content-Encoding: zstd')
      // JSONP leaves an answer it cannot decode as the target sent it, as for any other encoding.
      expect(wrapped.status).toBe(200)
      expect(wrapped.headers['content-encoding']).toBe('zstd')
    }
  })
})
