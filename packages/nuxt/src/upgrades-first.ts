import { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void

/** What `upgradesFirst` returns. */
export interface UpgradesFirst {
  /**
   * The emitter to give `createDevServerProxy` as its `server`: it sees every upgrade that is not
   * the dev server's own, and the listener's CONNECTs.
   */
  readonly server: EventEmitter & { readonly listening: boolean }
  /**
   * For `createDevServerProxy`'s `unclaimedUpgrade`: hands an upgrade no route took to the
   * listeners that were there before, as if cors-dev-proxy had not been asked.
   */
  readonly unclaimedUpgrade: (req: IncomingMessage, socket: Duplex) => void
  /** Puts the earlier listeners back in place of the one in front (when this Nuxt instance closes). */
  restore(): void
}

/**
 * Puts cors-dev-proxy's upgrade handling in front of the listener's other `upgrade` listeners.
 *
 * Why: `nuxi dev` listens to upgrades on its listener before the `listen` hook runs, and hands
 * every one outside Vite's `/_nuxt/` to Nitro (`nuxt.server.upgrade`), which proxies it to the
 * Nitro worker. A listener added after it would see the same socket, so two parties would
 * answer one handshake. Here the earlier listeners only get the upgrades cors-dev-proxy leaves:
 * Vite's own HMR socket (`isOwnUpgrade`), and those no `ws` route takes. Listeners added later
 * (Vite's HMR server, created after `listen`) still see every upgrade and ignore what is not theirs.
 *
 * @example
 * const front = upgradesFirst(server, isOwnUpgrade)
 * createDevServerProxy(resolved, { server: front.server, isOwnUpgrade, unclaimedUpgrade: front.unclaimedUpgrade })
 */
export function upgradesFirst(
  server: EventEmitter,
  isOwnUpgrade: (req: IncomingMessage) => boolean,
): UpgradesFirst {
  const front = Object.assign(new EventEmitter(), { listening: true })
  const earlier = server.listeners('upgrade') as UpgradeListener[]
  // The head of the upgrade being decided: the core calls `unclaimedUpgrade` synchronously,
  // from inside `front.emit`, without it.
  let pendingHead: Buffer = Buffer.alloc(0)

  function handOn(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    for (const listener of earlier) listener.call(server, req, socket, head)
  }

  function corsDevProxyUpgradeFirst(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (isOwnUpgrade(req)) {
      handOn(req, socket, head)
      return
    }
    pendingHead = head
    try {
      front.emit('upgrade', req, socket, head)
    } finally {
      pendingHead = Buffer.alloc(0)
    }
  }

  function forwardConnect(...args: unknown[]): void {
    front.emit('connect', ...args)
  }

  for (const listener of earlier) server.removeListener('upgrade', listener)
  server.on('upgrade', corsDevProxyUpgradeFirst)
  // The core answers CONNECT 400 where nobody else listens to it (Node would reset the socket).
  const connect = server.listenerCount('connect') === 0
  if (connect) server.on('connect', forwardConnect)

  return Object.freeze({
    server: front,
    unclaimedUpgrade: (req: IncomingMessage, socket: Duplex) => handOn(req, socket, pendingHead),
    restore() {
      if (connect) server.removeListener('connect', forwardConnect)
      const listeners = server.listeners('upgrade') as UpgradeListener[]
      // `nuxi` itself removes every upgrade listener when Nuxt closes: then nothing comes back.
      if (!listeners.includes(corsDevProxyUpgradeFirst)) return
      server.removeAllListeners('upgrade')
      for (const listener of listeners) {
        if (listener !== corsDevProxyUpgradeFirst) server.on('upgrade', listener)
        else for (const previous of earlier) server.on('upgrade', previous)
      }
    },
  })
}
