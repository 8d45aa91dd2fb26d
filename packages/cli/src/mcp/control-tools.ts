import type { ControlView, RouteControlView } from '@cors-dev-proxy/core/adapter'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { type InspectorClient, InspectorError } from './inspector-client.js'
import { guarded, toolResult } from './tool-result.js'

/** A route's view, with the record switch a newer dev server may add to it. */
type RouteView = RouteControlView & { readonly record?: unknown }

const NO_CONTROLS =
  "no route of this dev server has live switches: give a route `targets: { local: 'http://localhost:3000', staging: 'https://staging.example.com' }`, or `latency`, `failRate`, `throttle` or `faults`, in its config, and restart it"

/**
 * `GET /__cors-dev-proxy/control`; `undefined` for a dev server without switches, which lists no
 * route (an older one answers 404).
 */
async function fetchControls(inspector: InspectorClient): Promise<ControlView | undefined> {
  void inspector.listen()
  try {
    const board = (await inspector.call('GET', '/control')) as ControlView
    return board.routes.length === 0 ? undefined : board
  } catch (error) {
    if (error instanceof InspectorError && error.status === 404) return undefined
    throw error
  }
}

/** One route's switches in a line: `/api: target staging (local http://…, staging https://…); faults on: latency 300 ms`. */
export function routeLine(view: RouteView): string {
  const parts = [view.route]
  if (view.targets.length > 0) {
    parts.push(
      `target ${view.target ?? '?'} (${view.targets.map((target) => `${target.name} ${target.url}`).join(', ')})`,
    )
  }
  const faults = view.faults
  const values: string[] = []
  if (faults?.latency) {
    const [min, max] = faults.latency as [number, number]
    values.push(min === max ? `latency ${min} ms` : `latency ${min}-${max} ms`)
  }
  if (typeof faults?.failRate === 'number' && faults.failRate > 0)
    values.push(`failRate ${faults.failRate} → ${String(faults.failWith)}`)
  if (typeof faults?.throttle === 'number') values.push(`throttle ${faults.throttle} B/s`)
  if (view.paths.length > 0) values.push(`per path: ${view.paths.join(', ')}`)
  parts.push(
    values.length === 0 ? 'no faults' : `faults ${view.faultsOn ? 'on' : 'off'}: ${values.join(', ')}`,
  )
  if (typeof view.record === 'boolean') parts.push(`recording ${view.record ? 'on' : 'off'}`)
  return parts.join('; ')
}

/** Sends one change to `/control` and answers with the route's new state. */
async function change(inspector: InspectorClient, body: Record<string, unknown>) {
  const board = await fetchControls(inspector)
  if (board === undefined) throw new InspectorError(NO_CONTROLS)
  const view = (await inspector.call('POST', '/control', body)) as RouteView
  return toolResult(`${routeLine(view)}\nThe next request on ${view.route} uses it.`, { route: view })
}

const ROUTE = z.string().describe("the route's prefix as get_controls shows it, e.g. /api")
/** What a switch is for the client: a change of the dev server's state, the same each time it is made. */
const SWITCH_HINTS = Object.freeze({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
})
const ROUTE_OUTPUT = { route: z.looseObject({ route: z.string(), target: z.string().nullable() }) }

function registerGetControls(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'get_controls',
    {
      title: "Show the routes' live switches",
      description:
        "Lists the dev server's routes that have live switches: their targets and the one in use (e.g. local or staging), the latency and faults (failRate, failWith, throttle) and whether they are on, and the recording switch where the dev server has one. Change them with switch_target, set_faults and set_recording; nothing switched here survives a restart of the dev server.",
      outputSchema: {
        faultsOn: z.boolean().describe('whether any latency or fault is on'),
        routes: z.array(z.looseObject({ route: z.string() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const board = await fetchControls(inspector)
        if (board === undefined)
          return toolResult(`No switches: ${NO_CONTROLS}.`, { faultsOn: false, routes: [] })
        const text = [
          `${board.routes.length} route${board.routes.length === 1 ? '' : 's'} with switches${board.faultsOn ? ' (faults on)' : ''}:`,
          ...board.routes.map((view) => `- ${routeLine(view)}`),
        ].join('\n')
        return toolResult(text, { faultsOn: board.faultsOn, routes: board.routes })
      }),
  )
}

function registerSwitchTarget(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'switch_target',
    {
      title: 'Switch a route to another target',
      description:
        'Switches a route that has `targets` to another of them (e.g. from local to staging) without restarting the dev server: the next request on the route goes there. get_controls lists the routes and their target names.',
      inputSchema: {
        route: ROUTE,
        target: z.string().describe('the name of one of its targets, e.g. staging'),
      },
      outputSchema: ROUTE_OUTPUT,
      annotations: SWITCH_HINTS,
    },
    ({ route, target }) => guarded(() => change(inspector, { route, target })),
  )
}

function registerSetFaults(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'set_faults',
    {
      title: 'Set latency and faults on a route',
      description:
        "Adds latency or failures to a route live, to see how the app copes with a slow or failing backend, or switches them off: latency in ms (or [min, max]), failRate from 0 to 1 with failWith (a status, default 503, or 'reset' for a dropped connection), throttle in bytes per second. null removes a value. `on` switches the route's faults (its configured per-path ones too) on or off; it is set on when a value is given without it. Answers failed on purpose carry X-Cors-Dev-Proxy-Fault.",
      inputSchema: {
        route: ROUTE,
        on: z.boolean().optional().describe('faults on or off (default: on when a value is given)'),
        latency: z
          .union([z.number().min(0), z.tuple([z.number().min(0), z.number().min(0)]), z.null()])
          .optional()
          .describe('ms added before each answer, or [min, max]; null: none'),
        failRate: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .optional()
          .describe('share of requests to fail, 0 to 1'),
        failWith: z
          .union([z.number().int().min(400).max(599), z.literal('reset'), z.null()])
          .optional()
          .describe("the status of a failed request, or 'reset' to drop the connection"),
        throttle: z
          .number()
          .int()
          .min(1)
          .nullable()
          .optional()
          .describe('bytes per second each way; null: none'),
      },
      outputSchema: ROUTE_OUTPUT,
      annotations: SWITCH_HINTS,
    },
    ({ route, on, ...values }) =>
      guarded(() => {
        const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
        const valueGiven = Object.values(given).some((value) => value !== null)
        const faultsOn = on ?? (valueGiven ? true : undefined)
        return change(inspector, { route, ...given, ...(faultsOn === undefined ? {} : { faultsOn }) })
      }),
  )
}

function registerSetRecording(server: McpServer, inspector: InspectorClient): void {
  server.registerTool(
    'set_recording',
    {
      title: 'Switch recording on a route',
      description:
        "Switches the recording of a route's exchanges to files (cors-dev-proxy/recordings/) on or off, where the dev server offers that switch (get_controls shows `recording on/off` then). Recordings let the route answer from them when the backend is down (replay: 'fallback').",
      inputSchema: { route: ROUTE, on: z.boolean().describe('record or not') },
      outputSchema: ROUTE_OUTPUT,
      annotations: SWITCH_HINTS,
    },
    ({ route, on }) =>
      guarded(async () => {
        const board = await fetchControls(inspector)
        const view = board?.routes.find((candidate) => candidate.route === route) as RouteView | undefined
        if (typeof view?.record !== 'boolean') {
          throw new InspectorError(
            `the dev server at ${inspector.origin} has no recording switch for route '${route}': set \`record: true\` on the route in its config and restart it`,
          )
        }
        return change(inspector, { route, record: on })
      }),
  )
}

/**
 * Registers the tools of the routes' live switches (`/__cors-dev-proxy/control`):
 * `get_controls`, `switch_target`, `set_faults`, `set_recording`.
 *
 * @example
 * registerControlTools(server, createInspectorClient('http://localhost:5173'))
 */
export function registerControlTools(server: McpServer, inspector: InspectorClient): void {
  registerGetControls(server, inspector)
  registerSwitchTarget(server, inspector)
  registerSetFaults(server, inspector)
  registerSetRecording(server, inspector)
}
