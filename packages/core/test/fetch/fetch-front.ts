import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import type { CorsDevProxyOptions, Routes } from '../../src/config/options.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createFetchDispatcher } from '../../src/fetch/fetch-dispatcher.js'
import {
  createFetchHandler,
  type FetchHandler,
  fetchHandlerOf,
} from '../../src/proxy/create-fetch-handler.js'
import { createCorsDevProxy } from '../../src/proxy/node-middleware.js'

/** Which front end a test runs through. */
export type Front = 'node' | 'fetch' | 'fetch over fetch'

/** A proxy served on 127.0.0.1:0 through one front end, with what it logged. */
export interface ServedProxy {
  readonly url: string
  readonly lines: string[]
  /** Dispatchers the `fetch over fetch` front created (one per target origin); 0 elsewhere. */
  readonly dispatchers: () => number
  close(): Promise<void>
}

/** A `Request` for what `node:http` received, aborted when its client goes, as Bun's and Deno's are. */
function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const controller = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  req.once('aborted', () => controller.abort())
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string)
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream)
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body,
    signal: controller.signal,
    duplex: 'half',
  } as RequestInit)
}

/** Writes a `Response` back over `node:http`, streamed; a body that fails breaks the connection. */
function writeResponse(response: Response, res: ServerResponse): void {
  const headers: [string, string][] = []
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers.push([name, value])
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie])
  res.writeHead(response.status, response.statusText, headers.flat())
  res.flushHeaders()
  if (response.body === null) {
    res.end()
    return
  }
  const body = Readable.fromWeb(response.body as never)
  body.on('error', () => res.destroy())
  res.on('close', () => body.destroy())
  body.pipe(res)
}

/** A `node:http` server in front of `createFetchHandler`, as `Bun.serve` or `Deno.serve` would be. */
function fetchFront(handler: FetchHandler) {
  const server = createServer((req, res) => {
    void handler(toRequest(req, res)).then((response) => {
      if (response === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('front: no route\n')
        return
      }
      writeResponse(response, res)
    })
  })
  return { server, close: () => handler.close() }
}

function nodeFront(routes: Routes, options: CorsDevProxyOptions) {
  const proxy = createCorsDevProxy(routes, options)
  const server = createServer((req, res) =>
    proxy.middleware(req, res, () =>
      res.writeHead(404, { 'content-type': 'text/plain' }).end('front: no route\n'),
    ),
  )
  return { server, close: () => proxy.close() }
}

/** Serves the routes through `front`, logging into `lines` (colours stripped). */
export async function serveThrough(
  front: Front,
  routes: Routes,
  options: CorsDevProxyOptions = {},
): Promise<ServedProxy> {
  const lines: string[] = []
  const record = (line: string) => lines.push(stripVTControlCharacters(line))
  const logger = { info: record, warn: record, error: record }
  const all = { ...options, logger }
  let dispatchers = 0
  const dispatcherFor = (origin: string) => {
    dispatchers += 1
    return createFetchDispatcher(origin)
  }
  const { server, close } =
    front === 'node'
      ? nodeFront(routes, all)
      : fetchFront(
          front === 'fetch'
            ? createFetchHandler(routes, all)
            : // What a runtime without undici's dispatch() (Bun) gets: forwarding through fetch.
              fetchHandlerOf(resolveOptions(routes, all), { dispatcherFor }),
        )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    dispatchers: () => dispatchers,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await close()
    },
  }
}

/** A target on 127.0.0.1:0. */
export async function startTarget(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
