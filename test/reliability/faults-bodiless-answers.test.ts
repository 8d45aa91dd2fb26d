import { Agent } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningProxy, serveProxy } from '../support/proxy-server.js'
import { captureLogSink, sendHttp2Request, sendRequest } from '../support/servers.js'
import { answeringTarget, type RawTarget } from './support/raw-target.js'

/**
 * Answers without a body (RFC 9110 section 6.4.1: to HEAD, 1xx, 204, 304) whose head announces
 * one. Some servers send `Content-Length: N` on a 204 or 304; undici then fails the empty body
 * with a length mismatch, and before the fix the client got nothing at all (the proxy destroyed
 * the connection: "socket hang up" for 204 and 304, checked by removing the `isBodiless` branch
 * of the relay). The head is relayed and the answer ended.
 */

let target: RawTarget
let proxy: RunningProxy
let h2c: RunningProxy
const sink = captureLogSink()

const ANSWERS: Record<string, string> = {
  '/not-modified': 'HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\nETag: "v1"\r\n\r\n',
  '/no-content': 'HTTP/1.1 204 No Content\r\nContent-Length: 1234\r\nX-Seen: yes\r\n\r\n',
  '/head': 'HTTP/1.1 200 OK\r\nContent-Length: 1234\r\nContent-Type: text/plain\r\n\r\n',
  '/early-hints':
    'HTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
}

beforeAll(async () => {
  target = await answeringTarget((head) => {
    const path = head.split(' ')[1]?.replace(/^\/api/, '') ?? ''
    return ANSWERS[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'
  })
  // An async proxyRes hook: by the time the relay starts, undici has already failed the body.
  const routes = {
    '/api': { target: target.url, pathRewrite: false as const },
    '/hooked': {
      target: target.url,
      pathRewrite: { '^/hooked': '/api' },
      on: { proxyRes: () => new Promise<void>((resolve) => setTimeout(resolve, 20)) },
    },
  }
  proxy = await serveProxy(routes, { logger: sink })
  h2c = await serveProxy(routes, { logger: sink }, 'h2c')
})

afterAll(async () => {
  await proxy?.close()
  await h2c?.close()
  await target?.close()
})

describe('answers without a body whose head announces one', () => {
  it('relays a 304 with its Content-Length and ends it, and the connection serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (let i = 0; i < 3; i++) {
        const res = await sendRequest(`${proxy.url}/api/not-modified`, { agent })
        expect(res.status).toBe(304)
        expect(res.headers.etag).toBe('"v1"')
        // RFC 9110 section 8.6 lets a 304 carry the length of the representation it stands for.
        expect(res.headers['content-length']).toBe('1234')
        expect(res.body.byteLength).toBe(0)
      }
    } finally {
      agent.destroy()
    }
  })

  it('relays a 204 without its Content-Length (RFC 9110 section 8.6 forbids one)', async () => {
    const res = await sendRequest(`${proxy.url}/api/no-content`)
    expect(res.status).toBe(204)
    expect(res.headers['x-seen']).toBe('yes')
    expect(res.headers['content-length']).toBeUndefined()
    expect(res.body.byteLength).toBe(0)
  })

  it('relays the answer to HEAD with its Content-Length and no body', async () => {
    const res = await sendRequest(`${proxy.url}/api/head`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers['content-length']).toBe('1234')
    expect(res.body.byteLength).toBe(0)
  })

  it('passes over a 103 Early Hints to the final answer', async () => {
    const res = await sendRequest(`${proxy.url}/api/early-hints`)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('ok')
  })

  it('relays them when a proxyRes hook makes the relay wait', async () => {
    expect((await sendRequest(`${proxy.url}/hooked/not-modified`)).status).toBe(304)
    expect((await sendRequest(`${proxy.url}/hooked/no-content`)).status).toBe(204)
  })

  it('relays them to an HTTP/2 client, which refuses a 204 with a Content-Length', async () => {
    const notModified = await sendHttp2Request(`${h2c.url}/api/not-modified`)
    expect(notModified.status).toBe(304)
    expect(notModified.body.byteLength).toBe(0)
    const noContent = await sendHttp2Request(`${h2c.url}/api/no-content`)
    expect(noContent.status).toBe(204)
    expect(noContent.headers['content-length']).toBeUndefined()
    const head = await sendHttp2Request(`${h2c.url}/api/head`, { ':method': 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe('1234')
  })

  it('logs nothing: these are not failures', () => {
    expect(sink.lines).toEqual([])
  })
})
