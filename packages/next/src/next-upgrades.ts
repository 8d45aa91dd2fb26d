import type { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

const NO_HEAD = Buffer.alloc(0)

/**
 * Whether an upgrade is Next's own: a path with a `_next` segment, where Next serves its HMR
 * socket (`/_next/hmr` in Next 16), under the `basePath` or `assetPrefix` when there is one.
 * Such a socket is never a route's, whatever route covers its path.
 *
 * @example
 * isNextUpgrade({ url: '/_next/hmr?id=x' }) // true
 * isNextUpgrade({ url: '/live' })           // false
 */
export function isNextUpgrade(req: { readonly url?: string | undefined }): boolean {
  const pathname = (req.url ?? '').split('?', 1)[0] ?? ''
  return /(?:^|\/)_next\//.test(pathname)
}

/** What `routeUpgrades` returns: the listener to put first, and where the rest goes. */
export interface UpgradeRouting {
  /** The server's first `upgrade` listener: Next's own sockets to Next, the others noted for the proxy. */
  readonly first: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  /** For `createDevServerProxy`'s `unclaimedUpgrade`: an upgrade no route took goes to Next, with its head. */
  readonly unclaimed: (req: IncomingMessage, socket: Duplex) => void
}

/**
 * Shares a custom server's upgrades between cors-dev-proxy and Next: Next's HMR socket goes to
 * Next at once; any other goes to the proxy's listener (added after this one), which takes those
 * of `ws` routes and hands the rest back to Next through `unclaimed`. Next's are emitted on
 * `nextUpgrades`, the stand-in server Next listens to for upgrades (its `httpServer` option); one
 * that comes before Next listens there (before any page was requested) is closed, not left hanging.
 *
 * Why the head is kept here: the core hands an unclaimed upgrade back as `(req, socket)`, and Next's
 * handler wants the bytes that came after the handshake's head too (usually none).
 *
 * @example
 * const upgrades = routeUpgrades(nextUpgrades)
 * server.on('upgrade', upgrades.first)
 * createDevServerProxy(resolved, { server, isOwnUpgrade: isNextUpgrade, unclaimedUpgrade: upgrades.unclaimed })
 */
export function routeUpgrades(nextUpgrades: EventEmitter): UpgradeRouting {
  const heads = new WeakMap<IncomingMessage, Buffer>()
  function toNext(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!nextUpgrades.emit('upgrade', req, socket, head)) socket.destroy()
  }
  return Object.freeze({
    first(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      if (isNextUpgrade(req)) toNext(req, socket, head)
      else if (head.length > 0) heads.set(req, head)
    },
    unclaimed(req: IncomingMessage, socket: Duplex): void {
      const head = heads.get(req) ?? NO_HEAD
      heads.delete(req)
      toNext(req, socket, head)
    },
  })
}
