import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import { networkInterfaces } from 'node:os'
import { isLoopbackOrigin } from '@cors-dev-proxy/core'

/** Options of {@link createHostCheck}. */
export interface HostCheckOptions {
  /** The address the server listens on (`--host`). */
  readonly bindHost: string
  /**
   * More names to accept (`--allowed-host`); one that starts with a dot (`.example.test`) also
   * accepts its subdomains, as in Vite's `server.allowedHosts`.
   * @default []
   */
  readonly allowedHosts?: readonly string[]
}

/** Bind addresses that mean every interface: the machine's own addresses are then the bind address. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', ''])

/** The hostname of a `Host` value as the URL parser normalizes it (IPv4 forms, IPv6 brackets, case), or `undefined`. */
function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`)
    // `Host: a@b` or `Host: a/b` is not a host: the URL parser would accept part of it.
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '')
      return undefined
    return url.hostname.replace(/\.$/, '')
  } catch {
    return undefined
  }
}

function bindHostnames(bindHost: string): string[] {
  if (!WILDCARD_HOSTS.has(bindHost)) {
    const name = hostnameOf(bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost)
    return name === undefined ? [] : [name]
  }
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((info) =>
      info === undefined ? [] : [info.family === 'IPv6' ? `[${info.address}]` : info.address],
    )
    .flatMap((address) => hostnameOf(address) ?? [])
}

/**
 * The DNS-rebinding protection of `serve`, like Vite's `server.allowedHosts`: a page on
 * `evil.example` whose DNS later points at 127.0.0.1 reaches this server with
 * `Host: evil.example`, and must not read the answers. Accepted: loopback names and addresses
 * (the core's `isLoopbackOrigin` rule: `localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`), the
 * bind address (every address of this machine when bound to `0.0.0.0` or `::`), and the allowed
 * hosts. A request without `Host` (HTTP/1.0) passes: browsers always send one.
 *
 * @example
 * const isAllowed = createHostCheck({ bindHost: '127.0.0.1', allowedHosts: ['.dev.test'] })
 * isAllowed('api.dev.test:8080') // true
 * isAllowed('evil.example')      // false
 */
export function createHostCheck(options: HostCheckOptions): (host: string | undefined) => boolean {
  const exact = new Set(bindHostnames(options.bindHost))
  const suffixes: string[] = []
  for (const entry of options.allowedHosts ?? []) {
    const lowered = entry.toLowerCase()
    if (lowered.startsWith('.')) {
      suffixes.push(lowered)
      exact.add(lowered.slice(1))
    } else exact.add(hostnameOf(lowered) ?? lowered)
  }
  return function isHostAllowed(host) {
    if (host === undefined) return true
    const hostname = hostnameOf(host)
    if (hostname === undefined) return false
    if (isLoopbackOrigin(`http://${hostname}`)) return true
    return exact.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix))
  }
}

/** The request's host: `Host`, or HTTP/2's `:authority`. */
export function requestHost(req: IncomingMessage | Http2ServerRequest): string | undefined {
  const host = req.headers.host ?? req.headers[':authority']
  return Array.isArray(host) ? host[0] : host
}

/** The 403 body: which host, and the flag that allows it. */
export function forbiddenHostMessage(host: string | undefined): string {
  const name = host === undefined ? '' : (hostnameOf(host) ?? host)
  return `Blocked request: the Host "${host}" is not allowed (DNS-rebinding protection). To allow it, restart with --allowed-host ${name}\n`
}

/**
 * The host check as the first middleware of `serve`: 403 with a body that names the flag.
 *
 * @example
 * app.use(hostCheckMiddleware(createHostCheck({ bindHost: '127.0.0.1' })))
 */
export function hostCheckMiddleware(isAllowed: (host: string | undefined) => boolean) {
  return function corsDevProxyHostCheck(
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
    next: () => void,
  ): void {
    const host = requestHost(req)
    if (isAllowed(host)) {
      next()
      return
    }
    const body = forbiddenHostMessage(host)
    res.writeHead(403, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
  }
}
