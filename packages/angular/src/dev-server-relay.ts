import { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * What stands for `ng serve`'s HTTP server until a request shows it: the object the proxy is
 * attached to (`DevServerProxy.attach`).
 *
 * Why: Angular hands the proxy configuration to Vite's `server.proxy`, whose `configure(proxy)`
 * and `bypass(req, res)` never see the server. The first request or upgrade brings it
 * (`req.socket.server`); until then the relay has no address. Vite's own `upgrade` listener
 * calls our entries' `proxy.ws(req, socket, head)`, which the relay emits as its `upgrade`, so a
 * socket is handled once, by the core's upgrade listener, with no listener of ours on the server.
 */
export interface DevServerRelay extends EventEmitter {
  /** Learns the server from a request's socket, once: its address, its `close`. */
  learn(socket: Socket | undefined): void
  /** The server's address once learnt (`loopbackUrl` reads it for the inspector's replay). */
  address(): AddressInfo | string | null
  /** Whether the learnt server listens (the core publishes the URL `serverFetch` uses then). */
  readonly listening: boolean
}

/**
 * Creates the relay. It emits `listening` once the server is learnt, and `close` with it.
 *
 * @example
 * const relay = createDevServerRelay()
 * proxy.attach(relay)
 * relay.learn(req.socket) // on the first request
 */
export function createDevServerRelay(): DevServerRelay {
  let server: Server | undefined
  const relay = new EventEmitter() as DevServerRelay
  Object.defineProperty(relay, 'listening', { get: () => server?.listening === true })
  relay.address = () => server?.address() ?? null
  relay.learn = (socket) => {
    const seen = (socket as (Socket & { server?: Server }) | undefined)?.server
    if (server !== undefined || seen === undefined) return
    server = seen
    seen.once('close', () => relay.emit('close'))
    relay.emit('listening')
  }
  return relay
}
