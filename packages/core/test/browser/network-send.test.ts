import { createServer, type IncomingMessage } from 'node:http'
import { createSecureServer } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, type StartedServer } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import { createNetworkSend, type NetworkSend, requestTarget } from '../../src/browser/network-send.js'
import { ALPN_NEGOTIATION_FAILED } from '../../src/browser/streaming-upload.js'

/**
 * createNetworkSend against real servers on 127.0.0.1: what reaches them (the request target, no
 * userinfo on the wire) and streaming uploads, which go only over HTTP/2 as Chromium sends them.
 */

/** What a server saw: HTTP version, method, target, Authorization and the body's bytes. */
interface Seen {
  version: string
  method: string
  url: string
  authorization: string | undefined
  body: string
}

const seen: Seen[] = []
function record(req: IncomingMessage, res: { writeHead(status: number): { end(body: string): void } }) {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => {
    body += chunk
  })
  req.on('end', () => {
    seen.push({
      version: req.httpVersion,
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      body,
    })
    res.writeHead(200).end('ok')
  })
}

let http: StartedServer<ReturnType<typeof createServer>>
let http1Tls: StartedServer<ReturnType<typeof createHttpsServer>>
let http2Tls: StartedServer<ReturnType<typeof createSecureServer>>
let network: NetworkSend

beforeAll(async () => {
  const { cert, key } = await localhostCertificate()
  http = await listen(createServer(record))
  http1Tls = await listen(createHttpsServer({ cert, key }, record), 'https')
  http2Tls = await listen(createSecureServer({ cert, key, allowHTTP1: true }, record as never), 'https')
  network = createNetworkSend({ timeout: 5000, secure: false })
})

afterAll(async () => {
  await network?.close()
  await Promise.all([http?.close(), http1Tls?.close(), http2Tls?.close()])
})

const stream = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('x'))
      controller.close()
    },
  })

describe('requestTarget', () => {
  it.each([
    ['http://127.0.0.1:3000/a', 'http://127.0.0.1:3000', '/a'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000', '/'],
    ['http://127.0.0.1:3000/a?', 'http://127.0.0.1:3000', '/a?'],
    ['http://127.0.0.1:3000/a?q=1#f', 'http://127.0.0.1:3000', '/a?q=1'],
    ['http://user:pass@127.0.0.1:3000/t?', 'http://127.0.0.1:3000', '/t?'],
    ['https://u@localhost/t', 'https://localhost', '/t'],
  ])('%s goes to %s as %s', (url, origin, path) => {
    expect(requestTarget(url)).toEqual({ origin, path })
  })
})

describe('createNetworkSend', () => {
  it('sends a URL with user:password without them: no Authorization, the path alone', async () => {
    const before = seen.length
    const answer = await network.send({
      kind: 'request',
      url: `http://user:pass@127.0.0.1:${http.port}/t?q=1`,
      method: 'GET',
      headers: [],
    })
    expect(answer.status).toBe(200)
    expect(seen.slice(before)).toMatchObject([{ method: 'GET', url: '/t?q=1', authorization: undefined }])
  })

  it('sends a streaming upload over HTTP/2 to an https server that offers it', async () => {
    const before = seen.length
    const answer = await network.send({
      kind: 'request',
      url: `${http2Tls.url}/up`,
      method: 'POST',
      headers: [],
      body: stream(),
    })
    expect(answer).toMatchObject({ status: 200, protocol: 'h2' })
    expect(seen.slice(before)).toMatchObject([{ version: '2.0', method: 'POST', url: '/up', body: 'x' }])
  })

  it.each([
    ['an https server that speaks only HTTP/1.1', () => http1Tls.url],
    ['an http: URL', () => http.url],
  ])('refuses a streaming upload to %s with ERR_ALPN_NEGOTIATION_FAILED, sending nothing', async (_, url) => {
    const before = seen.length
    await expect(
      network.send({ kind: 'request', url: `${url()}/up`, method: 'POST', headers: [], body: stream() }),
    ).rejects.toMatchObject({ code: ALPN_NEGOTIATION_FAILED })
    // The same server still takes an ordinary request: only the stream was refused.
    await network.send({ kind: 'request', url: `${url()}/after`, method: 'POST', headers: [], body: 'y' })
    expect(seen.slice(before)).toMatchObject([{ version: '1.1', url: '/after', body: 'y' }])
  })
})
