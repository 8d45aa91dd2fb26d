import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { bodyPreview, exchangeDetail, exchangeLine, summarizeExchange } from './exchange-text.js'
import { registerExplainFailure } from './explain-failure-tool.js'
import type { InspectorClient } from './inspector-client.js'
import { fetchExchange, fetchExchanges } from './recorded-exchanges.js'
import { guarded, toolResult } from './tool-result.js'

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
