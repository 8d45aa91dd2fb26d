import type { CallExplanation, FailedCall } from '@cors-dev-proxy/core/adapter'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { type InspectorClient, InspectorError } from './inspector-client.js'
import { toolResult } from './tool-result.js'

/** A call the page made, as the agent describes it to `explain_failure`. */
export interface DescribedCall {
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
 *
 * @example
 * await explainCallTool(inspector, { url: 'http://localhost:3000/users', method: 'PUT' })
 */
export async function explainCallTool(
  inspector: InspectorClient,
  described: DescribedCall,
): Promise<CallToolResult> {
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
