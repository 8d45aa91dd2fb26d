import { once } from 'node:events'
import { createServer, type IncomingMessage } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createNetServer } from 'node:net'
import type { Duplex } from 'node:stream'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { serveProxy } from '../../../../test/support/proxy-server.js'
import { refusedUrl } from '../../../../test/support/refused-port.js'
import { captureLogSink, collectBody, listen } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import type { CorsDevProxyOptions, Routes } from '../../src/index.js'
import type { CorsDevProxy } from '../../src/proxy/create-cors-dev-proxy.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

interface Upstream {
  url: string
  wss: WebSocketServer
  /** The handshake requests the upstream accepted. */
  handshakes: IncomingMessage[]
  /** Server-side sockets, in connection order. */
  peers: WebSocket[]
}

/** A `ws` server that greets each client, echoes its messages, and records the handshakes. */
async function startUpstream(tls = false): Promise<Upstream> {
  const { cert, key } = await localhostCertificate()
  const server = tls ? createHttpsServer({ cert, key }) : createServer()
  const wss = new WebSocketServer({
    server,
    handleProtocols: (protocols) => protocols.values().next().value ?? false,
  })
  const handshakes: IncomingMessage[] = []
  const peers: WebSocket[] = []
  wss.on('connection', (peer, req) => {
    handshakes.push(req)
    peers.push(peer)
    peer.send('welcome')
    peer.on('message', (data) => peer.send(`echo: ${data.toString()}`))
  })
  const started = await listen(server, tls ? 'wss' : 'ws')
  cleanup.push(async () => {
    for (const client of wss.clients) client.terminate()
    wss.close()
    await started.close()
  })
  return { url: started.url, wss, handshakes, peers }
}

/**
 * A dev server: the proxy's upgrade listener first, then its own "HMR" WebSocket server that
 * takes whatever the proxy leaves alone (as Vite's does), and records which listener took what.
 */
async function startDevServer(routes: Routes, options: CorsDevProxyOptions = { log: 'silent' }) {
  const proxy: CorsDevProxy = createCorsDevProxy(routes, options)
  const server = createServer((req, res) => proxy.middleware(req, res))
  const hmr = new WebSocketServer({ noServer: true })
  hmr.on('connection', (socket) => socket.send('hmr hello'))
  const decisions: Array<[url: string | undefined, taken: boolean]> = []
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const taken = proxy.upgrade(req, socket, head)
    decisions.push([req.url, taken])
    if (!taken) hmr.handleUpgrade(req, socket, head, (ws) => hmr.emit('connection', ws, req))
  })
  const started = await listen(server, 'ws')
  cleanup.push(async () => {
    for (const client of hmr.clients) client.terminate()
    hmr.close()
    await proxy.close()
    await started.close()
  })
  return { url: started.url, proxy, decisions }
}

/** Opens a client and resolves once it is open, with the first message it received. */
async function openClient(url: string, protocols?: string[], options?: WebSocket.ClientOptions) {
  const client = new WebSocket(url, protocols, options)
  const messages: string[] = []
  const firstMessage = new Promise<string>((resolve) =>
    client.once('message', (data) => resolve(data.toString())),
  )
  client.on('message', (data) => messages.push(data.toString()))
  cleanup.push(async () => client.terminate())
  await once(client, 'open')
  return { client, messages, firstMessage }
}

/** Resolves with the status and body of a handshake the server did not accept. */
function unexpectedResponse(
  url: string,
  options?: WebSocket.ClientOptions,
): Promise<{ status: number; body: string }> {
  const client = new WebSocket(url, options)
  cleanup.push(async () => client.terminate())
  client.on('error', () => undefined)
  return new Promise((resolve) => {
    client.once('unexpected-response', async (_req, res) => {
      resolve({ status: res.statusCode ?? 0, body: (await collectBody(res)).toString() })
    })
  })
}

describe('forwardUpgrade', () => {
  it('forwards a ws:// handshake with path rewrite, subprotocol and headers, and relays messages both ways', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({ '/socket': { target: `${upstream.url}/base`, ws: true } })
    const { client, firstMessage } = await openClient(`${dev.url}/socket/chat?room=1`, ['chat.v1'])
    expect(await firstMessage).toBe('welcome')
    expect(client.protocol).toBe('chat.v1')
    const reply = new Promise<string>((resolve) => client.once('message', (data) => resolve(data.toString())))
    client.send('hello')
    expect(await reply).toBe('echo: hello')
    const handshake = upstream.handshakes[0]
    expect(handshake?.url).toBe('/base/chat?room=1')
    expect(handshake?.headers.host).toBe(new URL(upstream.url).host)
    expect(handshake?.headers['x-forwarded-for']).toBe('127.0.0.1')
    expect(dev.decisions).toEqual([['/socket/chat?room=1', true]])
  })

  it('propagates a close from the client to the upstream, with its code and reason', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({ '/socket': { target: upstream.url, ws: true } })
    const { client, firstMessage } = await openClient(`${dev.url}/socket`)
    await firstMessage
    const peer = upstream.peers[0] as WebSocket
    const closed = new Promise<[number, string]>((resolve) =>
      peer.once('close', (code, reason) => resolve([code, reason.toString()])),
    )
    client.close(4001, 'client leaves')
    expect(await closed).toEqual([4001, 'client leaves'])
  })

  it('propagates an abrupt end from the client to the upstream', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({ '/socket': { target: upstream.url, ws: true } })
    const { client, firstMessage } = await openClient(`${dev.url}/socket`)
    await firstMessage
    const peer = upstream.peers[0] as WebSocket
    const closed = new Promise<number>((resolve) => peer.once('close', (code) => resolve(code)))
    // No close frame: the TCP connection just goes away, as when a tab is killed.
    client.terminate()
    expect(await closed).toBe(1006)
  })

  it('propagates a close and an abrupt end from the upstream to the client', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({ '/socket': { target: upstream.url, ws: true } })
    const first = await openClient(`${dev.url}/socket`)
    await first.firstMessage
    const closed = new Promise<number>((resolve) => first.client.once('close', (code) => resolve(code)))
    upstream.peers[0]?.close(4002, 'server leaves')
    expect(await closed).toBe(4002)

    const second = await openClient(`${dev.url}/socket`)
    await second.firstMessage
    const dropped = new Promise<number>((resolve) => second.client.once('close', (code) => resolve(code)))
    upstream.peers[1]?.terminate()
    expect(await dropped).toBe(1006)
  })

  it('forwards to a wss:// target with a self-signed certificate only with secure: false', async () => {
    const upstream = await startUpstream(true)
    const dev = await startDevServer({
      '/insecure': { target: upstream.url, ws: true, secure: false },
      '/verified': { target: upstream.url, ws: true },
    })
    const { client, firstMessage } = await openClient(`${dev.url}/insecure`)
    expect(await firstMessage).toBe('welcome')
    const reply = new Promise<string>((resolve) => client.once('message', (data) => resolve(data.toString())))
    client.send('over tls')
    expect(await reply).toBe('echo: over tls')

    const refused = await unexpectedResponse(`${dev.url}/verified`)
    expect(refused.status).toBe(502)
    expect(refused.body).toContain('TLS certificate not trusted')
  })

  it('relays an upstream answer that is not 101 as an HTTP response', async () => {
    const server = createServer((_req, res) => res.end())
    server.on('upgrade', (_req, socket: Duplex) => {
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain\r\ncontent-length: 12\r\n\r\nwho are you?',
      )
    })
    const target = await listen(server)
    cleanup.push(target.close)
    const dev = await startDevServer({ '/socket': { target: target.url, ws: true } })
    expect(await unexpectedResponse(`${dev.url}/socket`)).toEqual({ status: 401, body: 'who are you?' })
  })

  it('answers 502 with the cause when the target is down', async () => {
    const dead = await refusedUrl()
    const dev = await startDevServer({ '/socket': { target: dead, ws: true } })
    const answer = await unexpectedResponse(`${dev.url}/socket`)
    expect(answer.status).toBe(502)
    expect(answer.body).toBe(`connection refused: is the server at ${dead} running?\n`)
  })
})

describe('forwardUpgrade on an HTTP/2 dev server', () => {
  it('takes the HTTP/1.1 upgrade of an https server that also speaks HTTP/2 (allowHTTP1)', async () => {
    const upstream = await startUpstream()
    const dev = await serveProxy({ '/socket': { target: upstream.url, ws: true } }, { log: 'silent' }, 'h2')
    cleanup.push(dev.close)
    const client = new WebSocket(`${dev.url.replace('https:', 'wss:')}/socket`, { rejectUnauthorized: false })
    cleanup.push(async () => client.terminate())
    const first = new Promise<string>((resolve) => client.once('message', (data) => resolve(data.toString())))
    expect(await first).toBe('welcome')
  })
})

describe('CorsDevProxy.upgrade', () => {
  it('leaves alone the upgrades no ws route owns, so the dev server HMR socket keeps working', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({
      // An http: target without `ws` does not take upgrades (a ws: target would imply `ws: true`).
      '/api': upstream.url.replace('ws:', 'http:'),
      '/socket': { target: upstream.url, ws: true },
    })
    for (const path of ['/', '/api/ws', '/socketless']) {
      const { firstMessage } = await openClient(`${dev.url}${path}`)
      expect(await firstMessage, path).toBe('hmr hello')
    }
    expect(dev.decisions).toEqual([
      ['/', false],
      ['/api/ws', false],
      ['/socketless', false],
    ])
    expect(upstream.handshakes).toHaveLength(0)
  })

  it('closes the forwarded WebSockets on close()', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({ '/socket': { target: upstream.url, ws: true } })
    const { client, firstMessage } = await openClient(`${dev.url}/socket`)
    await firstMessage
    const clientClosed = once(client, 'close')
    const peerClosed = once(upstream.peers[0] as WebSocket, 'close')
    await dev.proxy.close()
    await Promise.all([clientClosed, peerClosed])
  })
})

describe('the Origin of a forwarded handshake', () => {
  it('becomes the target origin when the page is on the dev server (changeOrigin), and goes up unchanged otherwise', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({ '/socket': { target: upstream.url, ws: true } })
    const own = dev.url.replace('ws:', 'http:')
    await (await openClient(`${dev.url}/socket`, undefined, { origin: own })).firstMessage
    await (await openClient(`${dev.url}/socket`, undefined, { origin: 'http://localhost:9999' })).firstMessage
    expect(upstream.handshakes.map((req) => req.headers.origin)).toEqual([
      upstream.url.replace('ws:', 'http:'),
      'http://localhost:9999',
    ])
  })

  it('always becomes the target origin with rewriteWsOrigin (Vite), and never changes with rewriteOrigin: false', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({
      '/vite': { target: upstream.url, ws: true, rewriteWsOrigin: true },
      '/plain': { target: upstream.url, ws: true, rewriteOrigin: false },
    })
    const own = dev.url.replace('ws:', 'http:')
    await (await openClient(`${dev.url}/vite`, undefined, { origin: 'http://localhost:9999' })).firstMessage
    await (await openClient(`${dev.url}/plain`, undefined, { origin: own })).firstMessage
    expect(upstream.handshakes.map((req) => req.headers.origin)).toEqual([
      upstream.url.replace('ws:', 'http:'),
      own,
    ])
  })
})

describe('a ws route with cors', () => {
  it("checks the handshake's Origin against the route's origin policy: 403 and one log line otherwise", async () => {
    const upstream = await startUpstream()
    const sink = captureLogSink()
    const dev = await startDevServer(
      { '/socket': { target: upstream.url, ws: true, cors: { origin: ['http://localhost:5173'] } } },
      { logger: sink },
    )
    for (let i = 0; i < 2; i++) {
      const refused = await unexpectedResponse(`${dev.url}/socket`, { origin: 'http://evil.example' })
      expect(refused.status).toBe(403)
      expect(refused.body).toContain('http://evil.example')
    }
    expect(upstream.handshakes).toHaveLength(0)
    expect(sink.lines.filter((line) => line.message.includes('refused (403)'))).toHaveLength(1)
    // The fix adds the page to the route's list rather than replacing it.
    expect(sink.text()).toContain("cors: { origin: ['http://localhost:5173', 'http://evil.example'] }")
    await (await openClient(`${dev.url}/socket`, undefined, { origin: 'http://localhost:5173' })).firstMessage
    // A program (no Origin) is not a page: CORS is about pages.
    await (await openClient(`${dev.url}/socket`)).firstMessage
    expect(upstream.handshakes).toHaveLength(2)
  })

  it('asks an origin function, async too', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({
      '/socket': {
        target: upstream.url,
        ws: true,
        cors: { origin: async (origin) => origin === 'http://app.localhost:5173' },
      },
    })
    expect((await unexpectedResponse(`${dev.url}/socket`, { origin: 'http://localhost:1' })).status).toBe(403)
    await (await openClient(`${dev.url}/socket`, undefined, { origin: 'http://app.localhost:5173' }))
      .firstMessage
    expect(upstream.handshakes).toHaveLength(1)
  })
})

describe('an async pathRewrite on a ws route', () => {
  it('is awaited before the handshake goes up', async () => {
    const upstream = await startUpstream()
    const dev = await startDevServer({
      '/socket': {
        target: upstream.url,
        ws: true,
        pathRewrite: async (path) => {
          await new Promise((resolve) => setTimeout(resolve, 5))
          return path.replace('/socket', '/rooms')
        },
      },
    })
    await (await openClient(`${dev.url}/socket/1`)).firstMessage
    expect(upstream.handshakes.map((req) => req.url)).toEqual(['/rooms/1'])
  })
})

describe('the debug line of a WebSocket handshake', () => {
  it('shows the route, the upstream URL, the status and the time, like an HTTP request', async () => {
    const upstream = await startUpstream()
    const sink = captureLogSink()
    // A target that drops every connection at once, kept open for the test: a port closed here
    // could be handed to another file's server of this worker before the handshake reaches it.
    const dropping = await listen(createNetServer((socket) => socket.destroy()))
    const downUrl = dropping.url
    onTestFinished(() => dropping.close())
    const dev = await startDevServer(
      { '/live': { target: `${upstream.url}/ws`, ws: true }, '/down': { target: downUrl, ws: true } },
      { log: 'debug', logger: sink },
    )
    await openClient(`${dev.url}/live?room=1`)
    expect((await unexpectedResponse(`${dev.url}/down/x`)).status).toBe(502)
    const lines = sink.lines.map((line) => line.message).filter((line) => line.includes('(WebSocket)'))
    const port = new URL(upstream.url).port
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[cors-dev-proxy\\] h1\\.1 GET /live\\?room=1 → ws://127\\.0\\.0\\.1:${port}/ws\\?room=1 101 \\d+ ms \\(WebSocket\\)$`,
        ),
      ),
      expect.stringMatching(/GET \/down\/x → ws:\/\/127\.0\.0\.1:\d+\/x 502 \d+ ms \(WebSocket\)$/),
    ])
  })

  it('is not written below debug level', async () => {
    const upstream = await startUpstream()
    const sink = captureLogSink()
    const dev = await startDevServer({ '/live': { target: upstream.url, ws: true } }, { logger: sink })
    await openClient(`${dev.url}/live`)
    expect(sink.text()).not.toContain('(WebSocket)')
  })
})
