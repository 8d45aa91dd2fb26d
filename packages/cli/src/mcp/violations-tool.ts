import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { type InspectorClient, InspectorError } from './inspector-client.js'
import { guarded, toolResult } from './tool-result.js'

/** One distinct violation as the dev server's `GET /__cors-dev-proxy/violations` lists it (inspector/violations-view.ts). */
interface ViolationEntry {
  readonly route: string
  readonly in: 'request' | 'response'
  readonly operation: string
  readonly pointer: string
  readonly message: string
  readonly expected?: string
  readonly actual?: string
  readonly count: number
  readonly lastExchange?: number | null
  readonly method?: string
  readonly url?: string
  readonly lastAt: string
}

/** The one sentence for a dev server that checks nothing: no route has `openapi`, and how to set it. */
export const NO_OPENAPI_ROUTE =
  "No route of this dev server has `openapi`, so nothing is checked against an OpenAPI document: set it on the route, e.g. '/api': { target: 'http://localhost:3000', openapi: './openapi.yaml' }, and restart the dev server."

/**
 * The violations the dev server lists; `undefined` when it serves no `/violations` (cors-dev-proxy's
 * own 404: no route has `openapi`, or a version without the endpoint).
 */
async function fetchViolations(inspector: InspectorClient): Promise<ViolationEntry[] | undefined> {
  try {
    return (await inspector.call('GET', '/violations')) as ViolationEntry[]
  } catch (error) {
    // `status` is set on cors-dev-proxy's own answers only: another server's 404 stays the error it is.
    if (error instanceof InspectorError && error.status === 404) return undefined
    throw error
  }
}

/** One violation on one line, then what was expected and what came, and the last call that had it. */
function violationText(entry: ViolationEntry): string {
  const side = entry.in === 'request' ? 'request' : 'response'
  const lines = [
    `- ${entry.route} ${entry.operation} ${side} ${entry.pointer}: ${entry.message} (×${entry.count})`,
  ]
  if (entry.expected !== undefined || entry.actual !== undefined)
    lines.push(`  expected ${entry.expected ?? '?'}; got ${entry.actual ?? '?'}`)
  const last = typeof entry.lastExchange === 'number' ? `#${entry.lastExchange} ` : ''
  if (entry.method !== undefined && entry.url !== undefined)
    lines.push(`  last: ${last}${entry.method} ${entry.url} at ${entry.lastAt}`)
  else lines.push(`  last at ${entry.lastAt}`)
  return lines.join('\n')
}

/** Whether the entry is on the route (its prefix) and for the operation (`GET /pets/{id}` or a part of it). */
function matches(entry: ViolationEntry, route: string | undefined, operation: string | undefined): boolean {
  if (route !== undefined && entry.route !== route) return false
  return operation === undefined || entry.operation.toLowerCase().includes(operation.toLowerCase())
}

/**
 * Registers `list_violations`: the distinct OpenAPI violations of the routes with `openapi`
 * (`GET /__cors-dev-proxy/violations`), filtered by route or operation.
 *
 * @example
 * registerViolationsTool(server, createInspectorClient('http://localhost:5173'))
 */
export function registerViolationsTool(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'list_violations',
    {
      title: 'List OpenAPI violations',
      description:
        "Lists the distinct ways the calls through the dev server broke the routes' OpenAPI documents (routes with `openapi`), oldest first: route, operation (e.g. GET /pets/{id}), request or response, the JSON pointer (into the body, or naming the parameter, header or status), the message, what the document expects and what came, how many calls had it, and the last call (method, URL, id for get_exchange).",
      inputSchema: {
        route: z.string().optional().describe("only this route's violations, by its prefix (e.g. /api)"),
        operation: z
          .string()
          .optional()
          .describe('only operations that contain this text (e.g. "GET /pets/{id}" or "/pets")'),
      },
      outputSchema: {
        checked: z.boolean().describe('whether a route of the dev server has `openapi`'),
        violations: z.array(
          z.looseObject({ route: z.string(), operation: z.string(), pointer: z.string(), count: z.number() }),
        ),
        total: z.number().describe('how many distinct violations the dev server holds'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ route, operation }) =>
      guarded(async () => {
        const all = await fetchViolations(inspector)
        if (all === undefined)
          return toolResult(NO_OPENAPI_ROUTE, { checked: false, violations: [], total: 0 })
        const shown = all.filter((entry) => matches(entry, route, operation))
        const head =
          all.length === 0
            ? 'No OpenAPI violation yet: every checked call kept the document (or none was made).'
            : `${shown.length} of ${all.length} distinct violations, oldest first:`
        return toolResult([head, ...shown.map(violationText)].join('\n'), {
          checked: true,
          violations: shown,
          total: all.length,
        })
      }),
  )
}
