import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'

/** A request as any Node server hands it over: `http`, `https`, or `http2` with `allowHTTP1`. */
export type ProxyRequest = IncomingMessage | Http2ServerRequest

/** The response that goes with a {@link ProxyRequest}: `http`/`https`, or the `http2` compatibility API. */
export type ProxyResponse = ServerResponse | Http2ServerResponse

/** Connect's `next`: no argument hands the request on, an error leaves the chain. */
export type NextFunction = (error?: unknown) => void
