import {
  createServer as createHttpServer,
  Agent as HttpAgent,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer, Agent as HttpsAgent } from 'node:https'
import { afterEach, describe, expect, it } from 'vitest'
import { expectConfigError } from '../../../../test/support/config-error.js'
import { captureLogSink, listen, sendRequest } from '../../../../test/support/servers.js'
import { localhostCertificate } from '../../../../test/support/tls.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createCorsDevProxy, type Routes } from '../../src/index.js'

// http-proxy's `agent` (README "Options": "object to be passed to http(s).request"), mapped onto
// the route's undici pool: maxSockets, keepAlive and an https.Agent's TLS options.

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (let close = cleanup.pop(); close; close = cleanup.pop()) await close()
})

/** A target that answers after `delay` ms and counts connections, and how many were open at once. */
async function startTarget(delay = 0) {
  let open = 0
  let connections = 0
  let mostOpen = 0
  const server = createHttpServer((_req: IncomingMessage, res: ServerResponse) => {
    setTimeout(() => res.end('ok'), delay)
  })
  server.on('connection', (socket) => {
    connections += 1
    open += 1
    mostOpen = Math.max(mostOpen, open)
    socket.once('close', () => {
      open -= 1
    })
  })
  const started = await listen(server)
  cleanup.push(started.close)
  return { url: started.url, connections: () => connections, mostOpen: () => mostOpen }
}

async function startProxy(routes: Routes) {
  const proxy = createCorsDevProxy(routes, { logger: captureLogSink() })
  const started = await listen(createHttpServer((req, res) => proxy.middleware(req, res)))
  cleanup.push(async () => {
    await proxy.close()
    await started.close()
  })
  return started
}

describe('agent: an http.Agent or https.Agent', () => {
  it('maxSockets caps the connections to the target', async () => {
    const target = await startTarget(30)
    const dev = await startProxy({
      '/api': { target: target.url, agent: new HttpAgent({ keepAlive: true, maxSockets: 1 }) },
    })
    const answers = await Promise.all([1, 2, 3].map(() => sendRequest(`${dev.url}/api/x`)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(target.mostOpen()).toBe(1)
  })

  it('keepAlive: false (new http.Agent()’s default) opens a connection per request; keepAlive: true reuses one', async () => {
    const closing = await startTarget()
    const keeping = await startTarget()
    const dev = await startProxy({
      '/close': { target: closing.url, agent: new HttpAgent() },
      '/keep': { target: keeping.url, agent: new HttpAgent({ keepAlive: true }) },
    })
    for (let i = 0; i < 3; i++) {
      await sendRequest(`${dev.url}/close/x`)
      await sendRequest(`${dev.url}/keep/x`)
    }
    expect(closing.connections()).toBe(3)
    expect(keeping.connections()).toBe(1)
  })

  it("an https.Agent's ca verifies a target with a private certificate", async () => {
    const { cert, key } = await localhostCertificate()
    const target = await listen(
      createHttpsServer({ cert, key }, (_req, res) => res.end('tls ok')),
      'https',
    )
    cleanup.push(target.close)
    const dev = await startProxy({
      '/trusted': { target: target.url, agent: new HttpsAgent({ ca: cert }) },
      '/untrusted': target.url,
    })
    const trusted = await sendRequest(`${dev.url}/trusted/x`)
    expect([trusted.status, trusted.body.toString()]).toEqual([200, 'tls ok'])
    expect((await sendRequest(`${dev.url}/untrusted/x`)).status).toBe(502)
  })

  it('refuses what cannot be honoured, naming it', () => {
    class ProxyAgent extends HttpAgent {}
    expectConfigError(
      () => resolveOptions({ '/api': { target: 'http://localhost:3000', agent: new ProxyAgent() } }),
      {
        code: 'INVALID_OPTION',
        option: "routes['/api'].agent",
        contains: ['is a ProxyAgent, which makes its own connections'],
      },
    )
    expectConfigError(
      () =>
        resolveOptions({
          '/api': {
            target: 'http://localhost:3000',
            agent: new HttpAgent({ localAddress: '127.0.0.1' } as never),
          },
        }),
      { code: 'INVALID_OPTION', option: "routes['/api'].agent", contains: ['"localAddress"'] },
    )
    expectConfigError(
      () => resolveOptions({ '/api': { target: 'http://localhost:3000', agent: {} as never } }),
      {
        code: 'INVALID_OPTION',
        option: "routes['/api'].agent",
        contains: ['must be an http.Agent or https.Agent'],
      },
    )
  })
})
