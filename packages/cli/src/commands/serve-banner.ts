import { isAbsolute, relative } from 'node:path'
import type { ResolvedCorsDevProxyOptions } from '@cors-dev-proxy/core/adapter'
import pc from 'picocolors'
import { type LocalCertificate, spkiSha256 } from '../serve/certificate.js'
import { formatServerUrls, type ServerUrls } from '../serve/server-urls.js'
import { VERSION } from '../version.js'

/** A target as the WebSocket URL the proxy opens (`http://h:3000` is reached as `ws://h:3000`). */
function webSocketTarget(target: URL): string {
  return target.href.replace(/^http/, 'ws').replace(/\/$/, '')
}

/** A path as the user reads it best: relative when it is inside the working directory, else absolute. */
function displayPath(cwd: string, path: string): string {
  const inside = relative(cwd, path)
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside
}

/** What `serve` prints once it listens, in Vite's shape: version, URLs, then what it serves. */
export function serveBanner(facts: {
  readonly cwd: string
  readonly https: boolean
  readonly urls: ServerUrls
  readonly configPath: string | undefined
  readonly staticDir: string | undefined
  readonly certificate: LocalCertificate | undefined
  /** The routes that forward WebSocket upgrades, as `prefix → target`. */
  readonly webSockets: readonly (readonly [prefix: string, target: string])[]
  /** With `--http3` and Caddy running: the public port. */
  readonly http3Port: number | undefined
}): string {
  const protocol =
    facts.http3Port !== undefined
      ? 'HTTP/3 through Caddy, HTTP/2 and HTTP/1.1 over TLS'
      : facts.https
        ? 'HTTP/2 over TLS, HTTP/1.1 accepted'
        : 'HTTP/1.1'
  const arrow = pc.green('➜')
  const row = (label: string, text: string) => `  ${arrow}  ${pc.bold(label.padEnd(8))} ${text}`
  const lines = [
    '',
    `  ${pc.bold(pc.cyan('cors-dev-proxy'))} ${pc.cyan(`v${VERSION}`)}  ${pc.dim(`serve, ${protocol}`)}`,
    '',
  ]
  lines.push(formatServerUrls(facts.urls))
  if (facts.configPath !== undefined) lines.push(row('Config:', displayPath(facts.cwd, facts.configPath)))
  if (facts.staticDir !== undefined) {
    lines.push(
      row(
        'Static:',
        `${displayPath(facts.cwd, facts.staticDir)} ${pc.dim('(navigations fall back to index.html)')}`,
      ),
    )
  }
  // WebSocket routes are easy to miss in the routes line: the URL to open, and where it goes.
  const local = facts.urls.local[0]
  for (const [prefix, target] of facts.webSockets) {
    const url = local === undefined ? prefix : `${local.replace(/^http/, 'ws').replace(/\/$/, '')}${prefix}`
    lines.push(row('WebSocket:', `${url} ${pc.dim('→')} ${target}`))
  }
  if (facts.http3Port !== undefined && facts.certificate !== undefined) {
    const port = facts.http3Port
    lines.push(
      row(
        'HTTP/3:',
        `https://localhost:${port}/ ${pc.green('h3 on')} ${pc.dim(`(Caddy: QUIC on UDP ${port}, Alt-Svc: h3=":${port}" on TCP answers)`)}`,
      ),
      row(
        'Chromium:',
        // QUIC accepts no self-signed certificate without its key listed, even after a click-through.
        pc.dim(
          `chromium --enable-quic --origin-to-force-quic-on=localhost:${port} --ignore-certificate-errors-spki-list=${spkiSha256(facts.certificate.cert)} https://localhost:${port}/`,
        ),
      ),
    )
  }
  if (facts.certificate !== undefined) {
    const how = facts.certificate.generated ? 'generated' : 'reused'
    const where = displayPath(facts.cwd, facts.certificate.dir)
    lines.push(
      row(
        'TLS:',
        `self-signed certificate ${how}, cached in ${where} ${pc.dim('(the browser asks once to accept it)')}`,
      ),
    )
  }
  return `${lines.join('\n')}\n`
}

/** The banner's WebSocket lines: each `ws` route's prefix and where its sockets go. */
export function webSocketRoutes(resolved: ResolvedCorsDevProxyOptions | undefined): Array<[string, string]> {
  return (resolved?.routes ?? [])
    .filter((route) => route.ws)
    .map((route) => [
      route.prefix,
      route.kind === 'mock'
        ? `mock backend (echo at ${route.prefix.replace(/\/$/, '')}/ws)`
        : webSocketTarget(route.target),
    ])
}
