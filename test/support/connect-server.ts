import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A connect-style middleware as the `cors` package and our middlewares shape them. */
export type TestMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void

/** A running HTTP server on 127.0.0.1 and a random port. */
export interface RunningServer {
  readonly server: Server
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  close(): Promise<void>
}

/** The answer of the handler after the middleware: 200, `text/plain`, body `handler <METHOD>`. */
export function finalHandler(req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 200
  res.setHeader('content-type', 'text/plain')
  res.end(`handler ${req.method}`)
}

/**
 * Serves `middleware` followed by `handler` (default {@link finalHandler}) on 127.0.0.1,
 * port 0. `next(err)` answers 500 with `error: <message>`, as connect's final handler does.
 */
export async function serveMiddleware(
  middleware: TestMiddleware,
  handler: (req: IncomingMessage, res: ServerResponse) => void = finalHandler,
): Promise<RunningServer> {
  const server = createServer((req, res) => {
    middleware(req, res, (err) => {
      if (err !== undefined && err !== null) {
        res.statusCode = 500
        res.end(`error: ${err instanceof Error ? err.message : String(err)}`)
        return
      }
      handler(req, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
