/* The route mocks' option in the option table (config/option-table.ts): `mocks`, with its routes-line note. */
import type { RichOptionEntry } from '../../../config/option-entry.js'
import type { ResolvedForwardParts, ResolvedRouteParts } from '../../../config/resolved-route-parts.js'

/**
 * `mocks`, with the folder the route's mock files are read from.
 *
 * @example
 * describeMocks(route) // 'mocks: cors-dev-proxy/mocks/api'
 */
export function describeMocks(route: ResolvedRouteParts): string | undefined {
  const mocks = (route as Partial<ResolvedForwardParts>).mocks
  if (mocks === undefined) return undefined
  return mocks.dir === undefined ? 'mocks' : `mocks: ${mocks.dir}`
}

/** A route's mocks beside its target: `mocks`. */
export const ROUTE_MOCKS_OPTIONS: readonly RichOptionEntry[] = [
  {
    name: 'mocks',
    level: 'route',
    doc: [
      "Answers some paths here while the rest goes to the target: `'METHOD /path/:param'` (or",
      "`'/path'`, any method) keys relative to the route's prefix, each an answer `{ status, headers,",
      'json | body }` or a function of the request (returning `undefined` lets it go on to the',
      'target); `true` reads mock files from `cors-dev-proxy/mocks/<route>/` (also read with keys,',
      'first), a string from that folder instead. Files are read again when they change, without a',
      'restart, and the inspector\'s "Mock this answer" writes one. Mocked answers get the route\'s',
      'CORS policy and cookie and redirect rewriting, and carry `X-Cors-Dev-Proxy-Mocked`.',
    ],
    defaultText: 'undefined (no mocks)',
    example: "{ 'GET /users/:id': { status: 200, json: { id: 1, name: 'Ada' } } }",
    fixValue: "{ 'GET /users/:id': { status: 200, json: { id: 1 } } }",
    resolvedBy: 'resolve-route-mocks.ts',
    startup: describeMocks,
  },
]
