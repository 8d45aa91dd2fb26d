/*
 * mcp/: the `mcp` command's MCP server (the MCP SDK, loaded by that command only), attached to a
 * running dev server's inspector. inspector-client.ts calls the inspector's API as its guard
 * lets a client outside the browser (the dev server's own `Origin` on a POST) and keeps its
 * event stream open so bodies are kept; the tools over it (exchange-tools.ts,
 * explain-failure-tool.ts with the rules of explain-exchange.ts, control-tools.ts,
 * violations-tool.ts) answer each failure as a tool error (tool-result.ts), never the
 * process's end.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { VERSION } from '../version.js'
import { registerControlTools } from './control-tools.js'
import { registerExchangeTools } from './exchange-tools.js'
import { createInspectorClient, type InspectorClient } from './inspector-client.js'
import { registerViolationsTool } from './violations-tool.js'

/** An MCP server attached to one dev server's inspector. */
export interface InspectorMcpServer {
  readonly server: McpServer
  readonly inspector: InspectorClient
  /** Closes the MCP session and the inspector's event stream. */
  close(): Promise<void>
}

const INSTRUCTIONS =
  "Tools for the dev server's proxy (cors-dev-proxy): the HTTP calls it routed (list_exchanges, get_exchange), why one failed in Chromium's words with the fix (explain_failure), sending one again (replay_exchange), and the routes' live switches: target, latency and faults, recording (get_controls, switch_target, set_faults, set_recording), and where calls broke the routes' OpenAPI documents (list_violations). When the app shows a failed request or a CORS error, start with list_exchanges { failedOnly: true } and explain_failure."

/**
 * The MCP server of `cors-dev-proxy mcp`: its tools call the inspector's HTTP API of the dev
 * server at `origin`, which must be running when a tool is called (not when this starts).
 *
 * @example
 * const { server } = createInspectorMcpServer('http://localhost:5173')
 * await server.connect(new StdioServerTransport())
 */
export function createInspectorMcpServer(origin: string): InspectorMcpServer {
  const inspector = createInspectorClient(origin)
  const server = new McpServer({ name: 'cors-dev-proxy', version: VERSION }, { instructions: INSTRUCTIONS })
  registerExchangeTools(server, inspector)
  registerControlTools(server, inspector)
  registerViolationsTool(server, inspector)
  return {
    server,
    inspector,
    async close() {
      inspector.close()
      await server.close()
    },
  }
}

/**
 * Serves the tools over this process's stdin and stdout until stdin ends (the MCP client went
 * away) or `stop` settles. Only the protocol goes to stdout; `log` takes everything else.
 *
 * @example
 * await serveMcpOnStdio('http://localhost:5173', (line) => process.stderr.write(`${line}\n`))
 */
export async function serveMcpOnStdio(
  origin: string,
  log: (line: string) => void,
  stop?: Promise<unknown>,
): Promise<void> {
  const mcp = createInspectorMcpServer(origin)
  const stdin = process.stdin
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve)
    stdin.once('close', resolve)
  })
  await mcp.server.connect(new StdioServerTransport(stdin, process.stdout))
  // Attached from the start, as an open inspector page is: the calls made from now on keep their bodies.
  const attached = await mcp.inspector.listen()
  log(
    `[cors-dev-proxy] mcp: serving the inspector of ${origin} over stdio${attached ? '' : ` (not reachable now: each tool call tries again)`}`,
  )
  await Promise.race([ended, ...(stop === undefined ? [] : [stop])])
  await mcp.close()
}
