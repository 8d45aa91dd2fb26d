import type { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import type { Socket } from 'node:net'

/** What a Nuxt-like `finish` handler saw of the client's request once its answer went out. */
export interface FinishSeen {
  readonly url: string
  /** Whether `req.socket` was still there. */
  readonly socket: boolean
  /** The message of what the handler threw, which would have killed the dev server. */
  readonly threw: string | undefined
}

/** What an intact request looks like to the handler. */
export const intactRequest = (url: string): FinishSeen => ({ url, socket: true, threw: undefined })

/** The answers the tracker has seen finish, and a wait for one of them. */
export interface FinishTracker {
  readonly seen: FinishSeen[]
  /** Waits (up to 2 s) until the `finish` handler ran for `url`. */
  seenFor(url: string): Promise<FinishSeen>
}

/**
 * Installs http-shutdown's request hook, as listhen does in front of Nuxt's app, as the
 * server's first `request` listener: it marks the socket busy, and idle again when the answer
 * has finished. With `req.socket` null the marking throws inside an event handler, which kills
 * the process; here the throw is recorded instead.
 *
 * @example
 * const tracker = trackLikeListhen(vite.httpServer)
 * expect(await tracker.seenFor('/api/items')).toEqual(intactRequest('/api/items'))
 */
export function trackLikeListhen(server: EventEmitter): FinishTracker {
  const seen: FinishSeen[] = []
  server.prependListener(
    'request',
    (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
      ;(req.socket as Socket & { _isIdle?: boolean })._isIdle = false
      res.once('finish', () => {
        let threw: string | undefined
        try {
          ;(req.socket as Socket & { _isIdle?: boolean })._isIdle = true
        } catch (error) {
          threw = (error as Error).message
        }
        seen.push({ url: req.url ?? '', socket: req.socket != null, threw })
      })
    },
  )
  return {
    seen,
    async seenFor(url) {
      for (let tries = 0; tries < 200; tries++) {
        const found = seen.find((entry) => entry.url === url)
        if (found !== undefined) return found
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error(`no finish event for ${url}`)
    },
  }
}
