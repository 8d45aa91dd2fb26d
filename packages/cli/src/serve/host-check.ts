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
  const judge = (host: string): boolean => {
    const hostname = hostnameOf(host)
    if (hostname === undefined) return false
    if (isLoopbackOrigin(`http://${hostname}`)) return true
    return exact.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix))
  }
  // Every request names a host, nearly always one of a few: parsing it as a URL each time cost
  // a few microseconds per request. Bounded, so a client sending a new Host each time cannot
  // make it grow.
  const verdicts = new Map<string, boolean>()
  return function isHostAllowed(host) {
    if (host === undefined) return true
    let verdict = verdicts.get(host)
    if (verdict === undefined) {
      verdict = judge(host)
      if (verdicts.size >= 256) verdicts.clear()
      verdicts.set(host, verdict)
    }
    return verdict
  }
}

/** A request's host as the check sees it: whether it passes, and the value to name in the 403. */
export interface HostVerdict {
  readonly allowed: boolean
  readonly host: string | undefined
}

/**
 * Checks every host a request names: `Host`, and on HTTP/2 `:authority` too. A client may send
 * both with different values; the proxy reads `:authority` first (the page's origin, the
 * same-origin `Origin` rewrite) while another reader may take `Host`, so both must pass.
 *
 * @example
 * checkRequestHost(isAllowed, req) // { allowed: false, host: 'evil.example' }
 */
export function checkRequestHost(
  isAllowed: (host: string | undefined) => boolean,
  req: IncomingMessage | Http2ServerRequest,
): HostVerdict {
  const authority = req.headers[':authority']
  const values = [authority, req.headers.host].flatMap((value) =>
    value === undefined ? [] : Array.isArray(value) ? value : [value],
  )
  for (const host of values) if (!isAllowed(host)) return { allowed: false, host }
  return { allowed: isAllowed(values[0]), host: values[0] }
}

/** The 403 body: which host, and the flag that allows it. */
export function forbiddenHostMessage(host: string | undefined): string {
  const name = host === undefined ? '' : (hostnameOf(host) ?? host)
  return `Blocked request: the Host "${host}" is not allowed (DNS-rebinding protection). To allow it, restart with --allowed-host ${name}\n`
}

/**
 * The host check of `serve`: `true` when the request may go on, else it is answered 403 with a
 * body that names the flag, and `false`.
 *
 * @example
 * if (passesHostCheck(isAllowed, req, res)) handle(req, res)
 */
export function passesHostCheck(
  isAllowed: (host: string | undefined) => boolean,
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
): boolean {
  const { headers } = req
  // The common request (one Host, no `:authority`) passes without an object built for it.
  if (headers[':authority'] === undefined && typeof headers.host === 'string' && isAllowed(headers.host)) {
    return true
  }
  const { allowed, host } = checkRequestHost(isAllowed, req)
  if (allowed) return true
  const body = forbiddenHostMessage(host)
  res.writeHead(403, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
  return false
}
