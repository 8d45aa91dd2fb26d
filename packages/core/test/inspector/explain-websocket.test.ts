import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { explainCall } from '../../src/inspector/explain-call.js'
import type { WebSocketCarrier } from '../../src/inspector/explain-websocket.js'

const routes = (config: Record<string, unknown>) => resolveOptions(config as never).routes
const PAGE = 'http://localhost:3000'
const NEXT_PROXY: WebSocketCarrier = {
  none: { why: 'proxy.ts sees no upgrade; use the custom server', where: 'add the route to server.mjs' },
}

/** The explanation of a failed WebSocket to `url` from a page on PAGE (nothing is probed). */
function explainSocket(url: string, config: Record<string, unknown>, webSockets?: WebSocketCarrier) {
  return explainCall(
    { url, method: 'GET', headers: [], credentials: 'include', initiator: 'WebSocket' },
    { origin: PAGE, routes: routes(config), ...(webSockets === undefined ? {} : { webSockets }) },
  )
}

describe('a failed WebSocket, explained for the front end in use', () => {
  it('to the dev server at a path no route takes: a route for that path to the backend, never to the dev server', async () => {
    const answer = await explainSocket('ws://localhost:3000/live/echo', { '/api': 'http://localhost:3001' })
    expect(answer).toMatchObject({
      kind: 'websocket',
      route: "'/live': { target: 'ws://localhost:3001', ws: true, pathRewrite: false }",
      call: "new WebSocket('/live/echo')",
      routeExists: false,
      probed: false,
    })
    expect(answer.route).not.toContain('localhost:3000')
    expect(answer.cause).toContain('No route takes /live/echo')
    expect(answer.cause).not.toContain('not subject to CORS')
  })

  it('on a Node dev server, a route without ws needs ws: true', async () => {
    const answer = await explainSocket('ws://localhost:3000/x/echo', { '/x': 'http://localhost:3001' })
    expect(answer.cause).toBe("The route '/x' forwards HTTP only: WebSocket upgrades need `ws: true` on it.")
    expect(answer.route).toBe("'/x': { target: 'http://localhost:3001', ws: true }")
    expect(answer.routeWhere).toBeUndefined()
  })

  it("behind the Fetch handler, ws: true and the runtime's upgrades handed to webSocket(request)", async () => {
    const answer = await explainSocket(
      'ws://localhost:3000/x/echo',
      { '/x': 'http://localhost:3001' },
      'bridge',
    )
    expect(answer.cause).toContain(
      "`ws: true` on it, and the runtime's upgrades handed to the handler's `webSocket(request)`",
    )
  })

  it('where the front end takes no WebSocket (proxy.ts), what works there and where the route goes', async () => {
    const answer = await explainSocket(
      'ws://localhost:3000/x/echo',
      { '/x': 'http://localhost:3001' },
      NEXT_PROXY,
    )
    expect(answer.cause).toBe(
      "The route '/x' forwards HTTP only: WebSocket upgrades need a front end that takes them: proxy.ts sees no upgrade; use the custom server.",
    )
    expect(answer.routeWhere).toBe('add the route to server.mjs')
    const other = await explainSocket('ws://localhost:3001/feed', { '/api': { mock: true } }, NEXT_PROXY)
    expect(other.routeWhere).toBe('add the route to server.mjs')
    expect(other.cause).toContain('To proxy it instead, the route below needs a front end that takes them')
  })
})
