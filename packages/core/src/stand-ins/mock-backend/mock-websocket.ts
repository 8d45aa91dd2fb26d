import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'

/** The path the WebSocket echo answers on. */
export const MOCK_WEBSOCKET_PATH = '/ws'

/** The mock's WebSocket echo, attached to any server's `upgrade` event. */
export interface MockWebSocketEcho {
  /**
   * Takes over a WebSocket upgrade for `/ws` and returns `true`; returns `false` and leaves the
   * socket alone for any other request, so the caller can hand it to someone else (e.g. HMR).
   * `target` is the path (and query) as the mock sees it, when a proxy route rewrote it.
   * @default req.url
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target?: string): boolean
  /** Closes every echo connection. */
  close(): Promise<void>
}

/**
 * Creates the WebSocket echo: every message comes back as it was sent (text as text, binary
 * as binary). The browser applies no CORS to WebSocket (the server may check `Origin`; this
 * one accepts any), which is what the playground shows next to the blocked fetch calls.
 *
 * @example
 * const echo = createMockWebSocketEcho({ maxPayload: 1 << 20 })
 * server.on('upgrade', (req, socket, head) => echo.upgrade(req, socket, head) || socket.destroy())
 */
export function createMockWebSocketEcho(options: { maxPayload: number }): MockWebSocketEcho {
  // noServer: the upgrade comes from whichever server hosts the mock (its own, or a dev server).
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload })
  wss.on('connection', (ws) => {
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }))
    // An oversized or malformed frame closes that one socket; it must not become an uncaught error.
    ws.on('error', () => ws.terminate())
  })

  return {
    upgrade(req, socket, head, target = req.url ?? '') {
      const path = target.split('?', 1)[0]
      const wantsWebSocket = String(req.headers.upgrade ?? '').toLowerCase() === 'websocket'
      if (path !== MOCK_WEBSOCKET_PATH || !wantsWebSocket) return false
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
      return true
    },
    close() {
      for (const client of wss.clients) client.terminate()
      return new Promise((resolve) => wss.close(() => resolve()))
    },
  }
}
