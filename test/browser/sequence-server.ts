import { createServer, type IncomingMessage, type RequestListener } from 'node:http'
import { createSecureServer, type Http2Session } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { localhostCertificate } from '../support/tls.js'

/** The sequence servers: three of http:, and two of https: (`S` speaks only HTTP/1.1, `H` HTTP/2 too). */
export type ServerName = 'A' | 'B' | 'P' | 'S' | 'H'

/** A request one of the sequence servers received, as the sequence tables write it. */
export interface SeenRequest {
  /** Which server: `A` or `B` (targets), `P` (the page's own origin), `S` and `H` (https: HTTP/1.1 only, and with HTTP/2). */
  readonly server: ServerName
  readonly method: string
  /** The path below the run's prefix, with its query. */
  readonly path: string
  /** The `Origin` header, or `-` when none was sent. */
  readonly origin: string
  readonly headers: IncomingMessage['headers']
}

/** What a route answers: a status and headers; `{A}`, `{B}`, `{P}` and `{PAGE}` in values are replaced per run. */
export interface RouteAnswer {
  readonly status?: number
  readonly headers?: Readonly<Record<string, string | readonly string[]>>
}

/** A route: answers by the request (its method, so a preflight can be told apart). */
export type Route = (request: SeenRequest) => RouteAnswer

/** The servers of the sequence tests, each on its own port of 127.0.0.1 (five origins; S and H with a self-signed certificate). */
export interface SequenceServers {
  /** Origins: the page's (`P`), the two targets, and the two https: servers. */
  readonly origins: Readonly<Record<ServerName, string>>
  /** B's server by the name `localhost`: another site than the 127.0.0.1 origins, for a top-level page framing P. */
  readonly topLevelOrigin: string
  /** Serves `routes` under `/<prefix>/` on every server; `key` is `'A /path'`. */
  register(prefix: string, routes: Readonly<Record<string, Route>>): void
  /** What reached the servers under `prefix`, in order. */
  seen(prefix: string): SeenRequest[]
  /**
   * Replaces `{A}`, `{B}`, `{P}`, `{S}`, `{H}` (each origin plus `/<prefix>`), `{A@user:pass}` (the
   * same with `user:pass@` in it), `{PAGE}` (the page's bare origin) and `{PAGE_B}`, `{PAGE_S}`,
   * `{PAGE_H}` (that server's bare origin, when a page of it calls).
   */
  expand(prefix: string, text: string): string
  close(): Promise<void>
}

const PAGE_HTML = '<!doctype html><meta charset="utf-8"><title>sequences</title>'

/** The paths every server answers with a page: `/` (a page of that origin) and `/sandbox` (an opaque origin, `Origin: null`). */
const PAGE_CSP: Readonly<Record<string, string | undefined>> = {
  '/': undefined,
  '/sandbox': 'sandbox allow-scripts',
}

/**
 * Starts the page's server and two targets. Every request is logged under its run prefix (the
 * first path segment) and answered by the registered route, or 404. Chromium and the model each
 * run a case under their own prefix, so their requests never mix.
 */
export async function startSequenceServers(): Promise<SequenceServers> {
  const routes = new Map<string, Readonly<Record<string, Route>>>()
  const log = new Map<string, SeenRequest[]>()
  const origins: Record<ServerName, string> = { A: '', B: '', P: '', S: '', H: '' }
  const expand = (prefix: string, text: string) =>
    text
      .replace(
        /\{([ABPSH])@([^}]*)\}/g,
        (_, name: ServerName, userinfo: string) =>
          `${origins[name].replace('://', `://${userinfo}@`)}/${prefix}`,
      )
      .replaceAll('{PAGE}', origins.P)
      .replaceAll('{PAGE_B}', origins.B)
      .replaceAll('{PAGE_S}', origins.S)
      .replaceAll('{PAGE_H}', origins.H)
      .replaceAll('{//A}', `${origins.A.slice('http:'.length)}/${prefix}`)
      .replaceAll('{//B}', `${origins.B.slice('http:'.length)}/${prefix}`)
      .replace(/\{([ABPSH])\}/g, (_, name: ServerName) => `${origins[name]}/${prefix}`)

  const handler = (name: ServerName): RequestListener =>
    function sequenceRoute(req, res) {
      const url = req.url ?? '/'
      if (Object.hasOwn(PAGE_CSP, url)) {
        res.setHeader('content-type', 'text/html')
        const csp = PAGE_CSP[url]
        if (csp !== undefined) res.setHeader('content-security-policy', csp)
        res.end(PAGE_HTML)
        return
      }
      const [, prefix = '', ...rest] = url.split('/')
      const path = `/${rest.join('/')}`
      const seen: SeenRequest = {
        server: name,
        method: req.method ?? 'GET',
        path,
        origin: req.headers.origin ?? '-',
        headers: req.headers,
      }
      // Drain the body so uploads complete before the answer.
      req.resume()
      req.on('end', () => {
        const list = log.get(prefix) ?? []
        list.push(seen)
        log.set(prefix, list)
        const route = routes.get(prefix)?.[`${name} ${path}`]
        if (route === undefined) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('no route')
          return
        }
        const answer = route(seen)
        const headers: Record<string, string | string[]> = {}
        for (const [header, value] of Object.entries(answer.headers ?? {})) {
          headers[header] = Array.isArray(value)
            ? value.map((item: string) => expand(prefix, item))
            : expand(prefix, value as string)
        }
        res.writeHead(answer.status ?? 200, headers)
        res.end(req.method === 'OPTIONS' ? '' : 'body')
      })
    }
  const { cert, key } = await localhostCertificate()
  const sessions = new Set<Http2Session>()
  const h2 = createSecureServer({ cert, key, allowHTTP1: true }, handler('H') as never)
  h2.on('session', (session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
  })
  const servers = [
    { name: 'A' as const, server: createServer(handler('A')) },
    { name: 'B' as const, server: createServer(handler('B')) },
    { name: 'P' as const, server: createServer(handler('P')) },
    // Node's https server lists only `http/1.1` by ALPN: a client that asks for h2 alone gets a TLS alert.
    { name: 'S' as const, server: createHttpsServer({ cert, key }, handler('S')) },
    { name: 'H' as const, server: h2 },
  ]
  for (const { name, server } of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const scheme = name === 'S' || name === 'H' ? 'https' : 'http'
    origins[name] = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  return {
    origins,
    topLevelOrigin: origins.B.replace('127.0.0.1', 'localhost'),
    register(prefix, table) {
      routes.set(prefix, table)
    },
    seen: (prefix) => log.get(prefix) ?? [],
    expand,
    async close() {
      for (const session of sessions) session.destroy()
      for (const { server } of servers) {
        if ('closeAllConnections' in server) server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
    },
  }
}
