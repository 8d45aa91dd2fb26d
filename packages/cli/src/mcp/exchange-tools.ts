import type { ExchangeView } from '@cors-dev-proxy/core/adapter'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { bodyPreview, exchangeDetail, exchangeLine, summarizeExchange } from './exchange-text.js'
import { explainCallTool } from './explain-call-tool.js'
import { explainExchange } from './explain-exchange.js'
import { type InspectorClient, InspectorError } from './inspector-client.js'
import { guarded, toolResult } from './tool-result.js'

/** The recorded exchanges, oldest first; the event stream is (re)opened so the next ones keep their bodies. */
export async function fetchExchanges(inspector: InspectorClient): Promise<ExchangeView[]> {
  void inspector.listen()
  return (await inspector.call('GET', '/exchanges')) as ExchangeView[]
}

/** One exchange by id, or an error saying which ids the inspector still holds. */
export async function fetchExchange(inspector: InspectorClient, id: number): Promise<ExchangeView> {
  const exchanges = await fetchExchanges(inspector)
  const view = exchanges.find((candidate) => candidate.id === id)
  if (view === undefined) {
    const range =
      exchanges.length === 0
        ? 'it holds none yet'
        : `it holds #${exchanges[0]?.id} to #${exchanges.at(-1)?.id}`
    throw new InspectorError(
      `no exchange #${id}: the inspector keeps the most recent ones only (${range}); list_exchanges shows them`,
    )
  }
  return view
}

const LIST_LIMIT = 200

/** `list_exchanges`: the recent calls through the dev server, newest first, with filters. */
function registerListExchanges(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'list_exchanges',
    {
      title: 'List calls through the dev server',
      description:
        "Lists the recent HTTP calls the dev server's proxy routes handled (what the browser and server-side code sent to /api and the other proxied paths), newest first: id, method, path, upstream URL, status, time, the browser's CORS verdict, and whether it failed. Use failedOnly to find the call behind an error in the app, then get_exchange or explain_failure with its id.",
      inputSchema: {
        failedOnly: z
          .boolean()
          .optional()
          .describe('only calls that failed: status 400 or more, blocked by CORS, or broken off'),
        pathContains: z
          .string()
          .optional()
          .describe('only calls whose path (or upstream URL) contains this text'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(LIST_LIMIT)
          .optional()
          .describe('how many to show, newest first (default 20)'),
      },
      outputSchema: {
        exchanges: z.array(z.looseObject({ id: z.number(), status: z.number(), failed: z.boolean() })),
        matching: z.number().describe('how many recorded calls match the filters'),
        recorded: z.number().describe('how many calls the inspector holds'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ failedOnly, pathContains, limit }) =>
      guarded(async () => {
        const all = (await fetchExchanges(inspector)).map(summarizeExchange)
        const needle = pathContains?.toLowerCase()
        const matching = all.filter(
          (summary) =>
            (failedOnly !== true || summary.failed) &&
            (needle === undefined ||
              summary.url.toLowerCase().includes(needle) ||
              (summary.upstreamUrl ?? '').toLowerCase().includes(needle)),
        )
        const shown = matching.slice(-(limit ?? 20)).reverse()
        const head =
          all.length === 0
            ? 'No call recorded yet: make the call in the app (or reload the page), then list again.'
            : `${shown.length} of ${matching.length} matching calls (of ${all.length} recorded), newest first:`
        return toolResult([head, ...shown.map(exchangeLine)].join('\n'), {
          exchanges: shown,
          matching: matching.length,
          recorded: all.length,
        })
      }),
  )
}

/** `get_exchange`: one call in full, masked as the inspector masks it. */
function registerGetExchange(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'get_exchange',
    {
      title: 'Show one call',
      description:
        'Shows one recorded call in full: request and response headers, status, upstream URL, protocols, timing, the CORS verdict, and the start of both bodies. Secrets (Authorization, cookies, tokens in URLs and bodies) are masked by the dev server. Bodies are kept for calls made while this MCP server is attached.',
      inputSchema: {
        id: z.number().int().min(0).describe('the id from list_exchanges'),
        bodyLimit: z
          .number()
          .int()
          .min(0)
          .max(100_000)
          .optional()
          .describe('characters of each body to show (default 2000)'),
      },
      outputSchema: { exchange: z.looseObject({ id: z.number(), status: z.number() }) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, bodyLimit }) =>
      guarded(async () => {
        const view = await fetchExchange(inspector, id)
        const limit = bodyLimit ?? 2000
        const exchange = {
          ...view,
          requestBody: bodyPreview(view.requestBody, limit),
          responseBody: bodyPreview(view.responseBody, limit),
        }
        return toolResult(exchangeDetail(view, limit), { exchange })
      }),
  )
}

/** `replay_exchange`: the call sent again through the dev server (`POST /__cors-dev-proxy/replay/<id>`). */
function registerReplayExchange(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'replay_exchange',
    {
      title: 'Send a call again',
      description:
        "Sends a recorded call again through the dev server, with its original method, headers and body, so it takes the same route, hooks and CORS step (e.g. after fixing the backend or switching the target). A POST, PUT, PATCH or DELETE is sent again too, with the effects it had the first time. Returns the new answer's status and the new exchange's id.",
      inputSchema: { id: z.number().int().min(0).describe('the id from list_exchanges') },
      outputSchema: {
        replayOf: z.number(),
        status: z.number(),
        id: z.number().nullable().describe('the new exchange, when the inspector shows it already'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    ({ id }) =>
      guarded(async () => {
        void inspector.listen()
        const answer = (await inspector.call('POST', `/replay/${id}`, undefined, 60_000)) as {
          replayOf: number
          status: number
        }
        const replay = (await fetchExchanges(inspector)).findLast((view) => view.replayOf === id)
        const after = replay === undefined ? '' : ` as exchange #${replay.id}`
        const text = `Replayed #${id}${after}: the dev server answered ${answer.status}.${replay === undefined ? '' : `\n${exchangeLine(summarizeExchange(replay))}`}`
        return toolResult(text, { replayOf: id, status: answer.status, id: replay?.id ?? null })
      }),
  )
}

/** `explain_failure`: why a call failed, in Chromium's words when the browser blocks it. */
function registerExplainFailure(server: McpServer, inspector: InspectorClient): void {
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
        if (args.url !== undefined) return explainCallTool(inspector, { ...args, url: args.url })
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
 * Registers the tools that read and replay the recorded calls: `list_exchanges`, `get_exchange`,
 * `explain_failure`, `replay_exchange`.
 *
 * @example
 * registerExchangeTools(server, createInspectorClient('http://localhost:5173'))
 */
export function registerExchangeTools(server: McpServer, inspector: InspectorClient): void {
  registerListExchanges(server, inspector)
  registerGetExchange(server, inspector)
  registerExplainFailure(server, inspector)
  registerReplayExchange(server, inspector)
}
