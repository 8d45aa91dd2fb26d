import type { CorsOriginPolicy } from '../config/cors-origin-policy.js'

/** A string as a single-quoted JavaScript literal. */
const quote = (text: string): string => `'${text.replace(/['\\]/g, '\\$&')}'`

/**
 * A `cors.origin` value that allows `origin` as well as what `policy` allows already, for a
 * fix in a log line: the default (localhost and loopback) kept through `isLoopbackOrigin`, since
 * a list would replace it; a list with the origin added; for a function, what it must return.
 *
 * @example
 * allowOriginExample(route.cors.origin, 'https://app.example.com')
 * // "cors: { origin: (origin) => isLoopbackOrigin(origin) || origin === 'https://app.example.com' } (isLoopbackOrigin from '@cors-dev-proxy/core' keeps the localhost origins allowed)"
 */
export function allowOriginExample(policy: CorsOriginPolicy | undefined, origin: string): string {
  const quoted = quote(origin)
  if (policy?.kind === 'function') {
    return `make the route's \`cors.origin\` function return true for ${quoted}`
  }
  if (policy?.kind !== 'match' || policy.allowed.loopback) {
    return `cors: { origin: (origin) => isLoopbackOrigin(origin) || origin === ${quoted} } (isLoopbackOrigin from '@cors-dev-proxy/core' keeps the localhost origins allowed)`
  }
  const listed = [...policy.allowed.origins.map(quote), ...policy.allowed.patterns.map(String), quoted]
  return `cors: { origin: [${listed.join(', ')}] }`
}
