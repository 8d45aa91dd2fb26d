/*
 * The contract's route option in the option table (config/option-table.ts): `openapi`, a simple
 * option (its validator and default here), so `RouteOptions` and the resolved route take its
 * types from this entry (`SimpleOptionParts`, config/options.ts).
 */
import { option } from '../../config/option-entry.js'
import type { ResolvedRouteParts } from '../../config/resolved-route-parts.js'
import type { OpenApiOptions, ResolvedOpenApiOptions } from './openapi-options.js'
import { checkOpenApi } from './resolve-openapi-options.js'

/**
 * The routes-line note of a route with `openapi`: where the document is, and what it does besides
 * checking.
 *
 * @example
 * describeOpenApi(route, resolved) // "openapi: ./openapi.yaml, enforce: request, mock: missing"
 */
export function describeOpenApi(
  route: ResolvedRouteParts,
  value: ResolvedOpenApiOptions | undefined,
): string | undefined {
  if (route.kind !== 'forward' || value === undefined) return undefined
  const { document } = value
  const where = typeof document === 'string' ? document : document instanceof URL ? document.href : 'inline'
  const switches = [
    value.enforce === false ? '' : `, enforce: ${value.enforce}`,
    value.mock === false ? '' : `, mock: ${value.mock}`,
  ]
  return `openapi: ${where}${switches.join('')}`
}

/** The options of the contract: a route's `openapi`. */
export const CONTRACT_OPTIONS = {
  /**
   * The team's OpenAPI document (3.0 or 3.1): a path, a URL, or `{ document, enforce, mock,
   * maxBodyBytes }`. Each exchange of the route is checked against it; its violations go to the
   * inspector's exchange data, the HAR, `/__cors-dev-proxy/violations` and the log.
   */
  openapi: option<string | URL | OpenApiOptions, ResolvedOpenApiOptions | undefined>({
    name: 'openapi',
    level: 'route',
    doc: [
      "The team's OpenAPI document (3.0 or 3.1): a path (relative to the project's root), a URL, or",
      '`{ document, enforce, mock, maxBodyBytes }` where `document` may also be the document as an',
      'object. Each exchange of the route is matched to an operation and checked against it (the',
      "request's parameters and body, the answer's status, content type and body) once the answer has",
      'gone, never changing it; violations show in the overlay (a card each), the inspector (a mark, a',
      'filter and the detail), the HAR (`_violations`), `/__cors-dev-proxy/violations` and the log (one line',
      "per distinct violation). `enforce: 'request'` refuses a request that breaks the document with a 400;",
      "`mock: 'missing'` answers from the document what the target does not implement yet. See",
      '[Check against your OpenAPI document](/guide/openapi) and [`openapi` options](#openapi-options).',
    ],
    defaultText: 'undefined (no contract)',
    example: "{ document: './openapi.yaml', mock: 'missing' }",
    fixValue: "'./openapi.yaml'",
    check: checkOpenApi,
    default: undefined,
    startup: describeOpenApi,
  }),
}
