/*
 * http/: the bottom layer, HTTP as any layer needs it, importing nothing of the core. The types
 * of a request and response on any Node server (here); header lists and hop-by-hop fields,
 * tokens, MIME (`whatwg-mimetype`), origins and loopback addresses, paths and the
 * `'METHOD /path/:param'` keys of `faults` and `mocks` (path-pattern.ts), Vary; the response-head
 * hook (response-head.ts, with body-taps.ts the only code that replaces a response's `writeHead`,
 * `write` or `end`), through which CORS sets its headers and JSONP takes the body over; a request
 * body paced to a route's `throttle` (paced-upload.ts); the per-request path rewrite
 * (rewrite-path.ts, picked at start-up by config/); the masking of secrets (mask-secrets.ts,
 * shared by inspector/ and the stand-ins); an answer that never cuts off an upload
 * (linger-close.ts); and `serverFetch` for SSR code (server-fetch.ts). Nothing here knows a route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'

/** A request as any Node server hands it over: `http`, `https`, or `http2` with `allowHTTP1`. */
export type ProxyRequest = IncomingMessage | Http2ServerRequest

/** The response that goes with a {@link ProxyRequest}: `http`/`https`, or the `http2` compatibility API. */
export type ProxyResponse = ServerResponse | Http2ServerResponse

/** Connect's `next`: no argument hands the request on, an error leaves the chain. */
export type NextFunction = (error?: unknown) => void
