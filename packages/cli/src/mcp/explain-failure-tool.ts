import type { CallExplanation, FailedCall } from '@cors-dev-proxy/core/adapter'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { explainExchange } from './explain-exchange.js'
import { type InspectorClient, InspectorError } from './inspector-client.js'
import { fetchExchange, fetchExchanges } from './recorded-exchanges.js'
import { guarded, toolResult } from './tool-result.js'

/** A call the page made, as the agent describes it to `explain_failure`. */
interface DescribedCall {
  readonly url: string
  readonly method?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly credentials?: FailedCall['credentials'] | undefined
  readonly initiator?: FailedCall['initiator'] | undefined
}

/** How long the dev server may take: it may probe the URL with a preflight and a GET, 5 s each. */
const EXPLAIN_TIMEOUT = 30_000

/** The explanation as lines: Chromium's text, the cause, the route and call to write, the server-side fix. */
function explanationText(call: FailedCall, explanation: CallExplanation): string {
  return [
    `${call.method} ${call.url} from a page of the dev server: ${explanation.kind}`,
    ...(explanation.message === undefined ? [] : [`console: ${explanation.message}`]),
    `cause: ${explanation.cause}`,
    explanation.routeExists
      ? `fix: call ${explanation.call} instead: the configured route ${explanation.route} forwards it`
      : `fix: add the route ${explanation.route} to the dev server's config and call ${explanation.call} instead`,
    ...(explanation.serverFix === undefined ? [] : [`or on the server: ${explanation.serverFix}`]),
    ...explanation.cookies.map((line) => `cookie: ${line}`),
    `certainty: ${explanation.certainty}; ${explanation.probe.text}`,
  ].join('\n')
}

/**
 * Asks the dev server to explain a call the page made to another origin (`POST
 * /__cors-dev-proxy/explain`, what the overlay sends): the same probe, memo and per-host budget,
 * so an agent asking again sends nothing again.
 */
async function explainCall(inspector: InspectorClient, described: DescribedCall): Promise<CallToolResult> {
  const call: FailedCall = {
    url: described.url,
    method: described.method ?? 'GET',
    headers: Object.entries(described.headers ?? {}),
    credentials: described.credentials ?? 'same-origin',
    initiator: described.initiator ?? 'fetch',
  }
  let explanation: CallExplanation
  try {
    explanation = (await inspector.call('POST', '/explain', call, EXPLAIN_TIMEOUT)) as CallExplanation
  } catch (error) {
    if (error instanceof InspectorError && error.status === 404) {
      throw new InspectorError(
        `the dev server at ${inspector.origin} does not explain calls (its overlay is off: overlay: false); explain a recorded call by its id instead`,
        404,
      )
    }
    throw error
  }
  return toolResult(explanationText(call, explanation), { exchange: null, explanation, recent: [] })
}

type Explained = { method: string; url: string; explanation: { message?: string; cause: string } }

/** The overlay's explanations, newest first (at most 5), or none when the overlay is off. */
async function recentExplanations(inspector: InspectorClient): Promise<Explained[]> {
  try {
    return ((await inspector.call('GET', '/explanations')) as Explained[]).slice(0, 5)
  } catch (error) {
    if (error instanceof InspectorError && error.status === 404) return []
    throw error
  }
}

function recentLine({ method, url, explanation }: Explained): string {
  return `- ${method} ${url}: ${explanation.message ?? explanation.cause}`
}

/**
 * Registers `explain_failure`: why a call failed, in Chromium's words when the browser blocks it,
 * from a recorded exchange (see `explainExchange`) or, for a call that never reached the dev
 * server, from the overlay's `explain` endpoint.
 *
 * @example
 * registerExplainFailure(server, inspector)
 */
export function registerExplainFailure(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'explain_failure',
    {
      title: 'Explain why a call failed',
      description:
        "Explains why a call failed, with the console message Chromium prints when the browser blocks it, the cause in plain words and the fix (the route to add, the header the server must send). Give the id of a recorded call (list_exchanges), or, for a call the page made straight to another origin (which never reached the dev server), its url, method and headers: the dev server then probes that URL as the overlay does (at most a preflight and one GET or HEAD; it never repeats a POST). With neither, explains the latest failed call and lists the overlay's recent explanations.",
      inputSchema: {
        id: z.number().int().min(0).optional().describe('a recorded call, from list_exchanges'),
        url: z
          .string()
          .optional()
          .describe('the absolute URL the page called, e.g. http://localhost:3000/users'),
        method: z.string().optional().describe('its method (default GET)'),
        headers: z.record(z.string(), z.string()).optional().describe('the headers the script set'),
        credentials: z
          .enum(['omit', 'same-origin', 'include'])
          .optional()
          .describe("fetch's credentials mode"),
        initiator: z.enum(['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket']).optional(),
      },
      outputSchema: {
        exchange: z.looseObject({ kind: z.string(), cause: z.string() }).nullable(),
        explanation: z.looseObject({ kind: z.string(), cause: z.string() }).nullable(),
        recent: z.array(z.looseObject({ url: z.string() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      guarded(async () => {
        if (args.url !== undefined) return explainCall(inspector, { ...args, url: args.url })
        const view =
          args.id !== undefined
            ? await fetchExchange(inspector, args.id)
            : (await fetchExchanges(inspector)).findLast((candidate) => explainExchange(candidate).failed)
        const recent = args.id === undefined ? await recentExplanations(inspector) : []
        if (view === undefined) {
          const text =
            recent.length === 0
              ? 'No failed call recorded, and the overlay explained none. Make the call in the app, then ask again (or pass the url the page called).'
              : `No failed call through the dev server. The overlay explained these calls the page made elsewhere:\n${recent.map(recentLine).join('\n')}`
          return toolResult(text, { exchange: null, explanation: null, recent })
        }
        const explained = explainExchange(view)
        const lines = [
          `#${explained.id} ${explained.call}: ${explained.kind}${explained.failed ? '' : ' (it did not fail)'}`,
          ...(explained.message === undefined ? [] : [`console: ${explained.message}`]),
          `cause: ${explained.cause}`,
          ...(explained.fix === undefined ? [] : [`fix: ${explained.fix}`]),
          ...(recent.length === 0
            ? []
            : [
                '',
                "The overlay's recent explanations of calls the page made elsewhere:",
                ...recent.map(recentLine),
              ]),
        ]
        return toolResult(lines.join('\n'), { exchange: explained, explanation: null, recent })
      }),
  )
}
