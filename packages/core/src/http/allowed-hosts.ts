import { isIP } from 'node:net'

/** The name in a Host value, or `'ip'` for an address, or `undefined` when it is not a host. */
function hostName(host: string): string | undefined {
  const trimmed = host.trim()
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']')
    return end > 0 && isIP(trimmed.slice(1, end)) === 6 ? 'ip' : undefined
  }
  const colon = trimmed.indexOf(':')
  const name = colon === -1 ? trimmed : trimmed.slice(0, colon)
  return isIP(name) === 4 ? 'ip' : name
}

/**
 * Vite's `server.allowedHosts` rule (its DNS-rebinding protection), as Vite applies it to HTTP
 * requests, and Nuxt with it: an IP address, `localhost` and `*.localhost` always pass; otherwise
 * the name must be listed, a leading `.` allowing the domain and its subdomains; `true` allows
 * every host. The adapters apply it to the WebSocket upgrades they forward, which skip the dev
 * server's middlewares.
 *
 * @example
 * isHostAllowed('app.example.com:5173', ['.example.com']) // true
 * isHostAllowed('evil.example', [])                       // false
 */
export function isHostAllowed(host: string | undefined, allowedHosts: true | readonly string[]): boolean {
  if (allowedHosts === true || host === undefined) return true
  if (/^(?:file|.+-extension):/i.test(host)) return true
  const name = hostName(host)
  if (name === undefined) return false
  if (name === 'ip' || name === 'localhost' || name.endsWith('.localhost')) return true
  return allowedHosts.some(
    (allowed) =>
      allowed === name || (allowed.startsWith('.') && (allowed.slice(1) === name || name.endsWith(allowed))),
  )
}
