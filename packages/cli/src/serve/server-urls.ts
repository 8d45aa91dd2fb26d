import { networkInterfaces } from 'node:os'
import pc from 'picocolors'

/** The addresses a server can be opened at, as Vite lists them. */
export interface ServerUrls {
  /** On this machine. */
  readonly local: readonly string[]
  /** From other machines (empty unless the server listens beyond loopback). */
  readonly network: readonly string[]
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', ''])
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/

function urlOf(scheme: string, host: string, port: number): string {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  return `${scheme}://${bracketed}:${port}/`
}

/**
 * The URLs of a server listening on `host` and `port`: a loopback host is local only; a wildcard
 * (`0.0.0.0`, `::`) is `localhost` plus every external address of this machine; any other address
 * is a network URL.
 *
 * @example
 * serverUrls('http', '127.0.0.1', 8080) // { local: ['http://127.0.0.1:8080/'], network: [] }
 */
export function serverUrls(scheme: 'http' | 'https', host: string, port: number): ServerUrls {
  if (LOOPBACK.test(host)) return { local: [urlOf(scheme, host, port)], network: [] }
  if (!WILDCARD_HOSTS.has(host)) return { local: [], network: [urlOf(scheme, host, port)] }
  const ipv4Only = host === '0.0.0.0'
  const network = Object.values(networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && !info.internal && (!ipv4Only || info.family === 'IPv4'))
    .filter((info) => info?.family === 'IPv4' || !info?.address.startsWith('fe80'))
    .map((info) => urlOf(scheme, info?.address ?? '', port))
  return { local: [urlOf(scheme, 'localhost', port)], network }
}

/**
 * The lines `serve` prints once it listens, in Vite's shape:
 * `➜  Local:   http://127.0.0.1:8080/` and `➜  Network: use --host to expose`.
 *
 * @example
 * io.out(formatServerUrls(serverUrls('http', '127.0.0.1', 8080)))
 */
export function formatServerUrls(urls: ServerUrls): string {
  const arrow = pc.green('➜')
  const lines = urls.local.map((url) => `  ${arrow}  ${pc.bold('Local:')}   ${pc.cyan(url)}`)
  if (urls.network.length === 0 && urls.local.length > 0) {
    lines.push(`  ${arrow}  ${pc.bold('Network:')} ${pc.dim('use --host 0.0.0.0 to expose')}`)
  }
  for (const url of urls.network) lines.push(`  ${arrow}  ${pc.bold('Network:')} ${pc.cyan(url)}`)
  return lines.join('\n')
}
