import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { InspectorError } from './inspector-client.js'

/**
 * A tool's answer: concise text for the model, and the same facts as JSON (`structuredContent`)
 * for clients that read the declared output schema.
 *
 * @example
 * return toolResult('3 exchanges', { exchanges })
 */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured }
}

/**
 * A tool's failure, as MCP reports it to the model (`isError`), not as a protocol error: the
 * agent reads what went wrong and what to do.
 *
 * @example
 * return toolError('no exchange #12')
 */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true }
}

/**
 * Runs a tool's work and turns whatever it throws into {@link toolError}: an unreachable dev
 * server or an unexpected answer is the tool's error, never the MCP process's crash.
 *
 * @example
 * server.registerTool('get_controls', config, () => guarded(async () => toolResult(...)))
 */
export async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof InspectorError) return toolError(error.message)
    return toolError(`cors-dev-proxy mcp failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
