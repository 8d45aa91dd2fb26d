import type { ProxyRequest } from './proxy-types.js'

/*
 * The first bytes of a request body that a step read before the forwarder, and then stopped:
 * `enforce: 'request'` reads a body to check it, and stops once it is over the bound, leaving
 * the rest in the stream. The forwarder sends these bytes first, then the rest of the stream
 * (forward/request-body.ts's `'prefixed'` body), so the target gets the body whole and nothing
 * past the bound is held in memory.
 */

const prefixes = new WeakMap<ProxyRequest, Buffer>()

/**
 * Keeps the bytes read from `req`'s body before it was paused, for the forwarder to send first.
 *
 * @example
 * req.pause()
 * keepReadPrefix(req, Buffer.concat(chunks))
 */
export function keepReadPrefix(req: ProxyRequest, bytes: Buffer): void {
  prefixes.set(req, bytes)
}

/**
 * The bytes a step read from `req`'s body and left for the forwarder (see `keepReadPrefix`), or
 * `undefined` when nobody did.
 *
 * @example
 * const prefix = readPrefixOf(req) // then the rest of `req`
 */
export function readPrefixOf(req: ProxyRequest): Buffer | undefined {
  return prefixes.get(req)
}
