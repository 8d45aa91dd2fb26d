/*
 * A WebSocket the runtime accepted (Bun's `server.upgrade`, `Deno.upgradeWebSocket`,
 * @hono/node-ws's `upgradeWebSocket`) piped to the target's WebSocket, opened with the runtime's
 * own `WebSocket` client: messages both ways, each side closed when the other closes. The
 * runtimes hand their sockets over in three different shapes, so the bridge takes plain calls
 * (`open`, `message`, `close`) that each runtime's handlers make, and a peer with `send` and
 * `close`, which all three sockets have.
 */

/** The accepted socket, as every runtime's has it: Bun's `ServerWebSocket`, Deno's `WebSocket`, Hono's `WSContext`. */
export interface WebSocketPeer {
  send(data: string | ArrayBuffer | Uint8Array): void
  close(code?: number, reason?: string): void
}

/** What the runtime's socket handlers call; see `FetchHandler.webSocket`. */
export interface FetchWebSocketBridge {
  /** The target's WebSocket URL the bridge opens, path rewritten as for any upgrade. */
  readonly url: string
  /** The runtime accepted the client's socket: opens the target's. */
  open(peer: WebSocketPeer): void
  /** A message from the client, sent on once the target's socket is open. */
  message(data: unknown): void
  /** The client closed: closes the target's socket. */
  close(code?: number, reason?: string): void
}

/** The runtime's `WebSocket` client constructor, with the init object Bun, Node (undici) and Deno take. */
export type WebSocketClient = new (
  url: string,
  init?: string[] | { headers?: Record<string, string>; protocols?: string[] },
) => WebSocket

/**
 * A code `WebSocket.close()` accepts: 1000, or 3000 to 4999 (WebSockets standard). The others
 * (1001 going away, 1006 abnormal...) are reported by a socket, never sent by a script.
 */
function closeCode(code: number | undefined): number {
  return code === 1000 || (code !== undefined && code >= 3000 && code <= 4999) ? code : 1000
}

const utf8 = new TextEncoder()

/** A close reason a socket accepts: at most 123 bytes of UTF-8. */
function closeReason(reason: string | undefined): string {
  return reason !== undefined && utf8.encode(reason).byteLength <= 123 ? reason : ''
}

/** Opens the target's socket, with the headers when the client takes them (Deno's may not). */
function openUpstream(Client: WebSocketClient, url: string, headers: Record<string, string>): WebSocket {
  try {
    return new Client(url, { headers })
  } catch {
    // A client that reads the second argument as protocols only: the headers cannot travel.
    return new Client(url)
  }
}

/**
 * The bridge between the client's socket, once the runtime accepted it, and the target's at
 * `url`. Messages the client sends before the target's socket opens wait for it; a close on
 * either side closes the other (with the code when a script may send it, else 1000).
 *
 * @example
 * const bridge = createWebSocketBridge('ws://localhost:3000/socket', { origin: 'http://localhost:3000' }, WebSocket)
 * Deno: socket.onopen = () => bridge.open(socket); socket.onmessage = (e) => bridge.message(e.data)
 */
export function createWebSocketBridge(
  url: string,
  headers: Record<string, string>,
  Client: WebSocketClient,
): FetchWebSocketBridge {
  let upstream: WebSocket | undefined
  let closed = false
  const waiting: unknown[] = []
  return {
    url,
    open(peer) {
      const socket = openUpstream(Client, url, headers)
      upstream = socket
      socket.binaryType = 'arraybuffer'
      socket.addEventListener('open', () => {
        for (const data of waiting.splice(0)) socket.send(data as string)
      })
      socket.addEventListener('message', (event) => peer.send(event.data as string | ArrayBuffer))
      // An error is followed by a close event (WebSockets standard), which closes the client.
      socket.addEventListener('close', (event) => {
        if (closed) return
        closed = true
        peer.close(closeCode(event.code), closeReason(event.reason))
      })
    },
    message(data) {
      if (upstream?.readyState === 1) upstream.send(data as string)
      else if (!closed) waiting.push(data)
    },
    close(code, reason) {
      if (closed) return
      closed = true
      waiting.length = 0
      upstream?.close(closeCode(code), closeReason(reason))
    },
  }
}
