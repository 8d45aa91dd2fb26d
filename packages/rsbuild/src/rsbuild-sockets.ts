import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/**
 * Whether an upgrade is Rsbuild's own HMR socket, with Rsbuild's own test: its `ws` server is
 * made with `path: dev.client.path` (default `/rsbuild-hmr`, not joined with `server.base`), and
 * `ws` takes an upgrade when the URL's path before `?` is exactly that path. Paths below it are
 * not Rsbuild's, and are a route's to forward. `undefined` (`rsbuild preview`) has no HMR socket.
 *
 * @example
 * isRsbuildHmrUpgrade(req, '/rsbuild-hmr') // true for GET /rsbuild-hmr?token=...
 */
export function isRsbuildHmrUpgrade(req: IncomingMessage, hmrPath: string | undefined): boolean {
  if (hmrPath === undefined) return false
  const url = req.url ?? ''
  const query = url.indexOf('?')
  return (query === -1 ? url : url.slice(0, query)) === hmrPath
}

/** The parts of Rsbuild's normalized `server` config its host check reads. */
export interface RsbuildHostConfig {
  /** Rsbuild 2.3 and later; `true` (its default) turns the check off. */
  readonly allowedHosts?: readonly string[] | true | undefined
  readonly host?: string | undefined
}

/**
 * The host names Rsbuild's host check (DNS-rebinding protection, Rsbuild 2.3 and later) admits
 * besides addresses and `localhost`: `server.allowedHosts` and `server.host`, as Rsbuild lists
 * them; `undefined` when it checks nothing (`allowedHosts: true`, its default, or a version
 * without the option).
 *
 * @example
 * allowedHostsOf({ allowedHosts: ['.example.com'], host: '0.0.0.0' }) // ['.example.com', '0.0.0.0']
 */
export function allowedHostsOf(server: RsbuildHostConfig): readonly string[] | undefined {
  const { allowedHosts, host } = server
  if (!Array.isArray(allowedHosts)) return undefined
  return host === undefined ? [...allowedHosts] : [...allowedHosts, host]
}

const normalizeHostname = (hostname: string): string => hostname.toLowerCase().replace(/\.$/, '')

/**
 * Rsbuild's host check, as Rsbuild 2.3 applies it to HTTP requests and to its own upgrades:
 * an IP address, `localhost` and `*.localhost` always pass; otherwise the name must be listed,
 * a leading `.` allowing the domain and its subdomains. Upgrades of `ws` routes bypass Rsbuild's
 * middlewares, so the proxy applies the same rule to them.
 *
 * @example
 * isHostAllowed('app.example.com:3000', ['.example.com']) // true
 * isHostAllowed('evil.example', ['localhost'])            // false
 */
export function isHostAllowed(host: string | undefined, allowedHosts: readonly string[]): boolean {
  if (!host || /[\s/@\\?#%]/.test(host)) return false
  let hostname: string
  try {
    hostname = normalizeHostname(new URL(`http://${host}`).hostname)
  } catch {
    return false
  }
  if (hostname.startsWith('[') || isIP(hostname) !== 0) return true
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true
  return allowedHosts.some((allowed) => {
    const name = normalizeHostname(allowed)
    return (
      hostname === name || (name.startsWith('.') && (hostname === name.slice(1) || hostname.endsWith(name)))
    )
  })
}
