/** One entry of an app's middleware stack: connect's `{ route, handle }`, or an Express router `Layer`. */
interface StackLayer {
  readonly handle?: unknown
}

/**
 * What Express 4 itself mounts at the head of every app's router (`app.lazyrouter`): the query
 * parser and `expressInit`. Express 5 does the same work in `app.handle`, outside the stack.
 */
const EXPRESS_4_INIT: ReadonlySet<string> = new Set(['query', 'expressInit'])

function layersOf(stack: unknown): StackLayer[] | undefined {
  return Array.isArray(stack) ? (stack as StackLayer[]) : undefined
}

/** Express 5's router, made lazily by a getter; Express 4's `app.router` getter throws (removed in 4). */
function express5Layers(app: { router?: { stack?: unknown } }): StackLayer[] | undefined {
  try {
    return layersOf(app.router?.stack)
  } catch {
    return undefined
  }
}

/**
 * The handles an app runs, in order, for a request that reaches `own`: the middleware functions
 * mounted before it, or `undefined` when the app's stack cannot be read (neither connect nor
 * Express 4 or 5) or `own` is not in it. Express 4's own init layers are left out: they only
 * dress the request for Express (`req.query`, Express's prototypes, `X-Powered-By`).
 *
 * @example
 * const app = connect()
 * app.use(hostCheck)
 * app.use(proxy)
 * handlesBefore(app, proxy) // [hostCheck]
 */
export function handlesBefore(app: unknown, own: unknown): unknown[] | undefined {
  if (typeof app !== 'function') return undefined
  const fields = app as unknown as {
    stack?: unknown
    _router?: { stack?: unknown }
    router?: { stack?: unknown }
  }
  // connect keeps `stack` on the app, Express 4 its router in `_router` (made on the first `use`).
  const express4 = layersOf(fields._router?.stack)
  const layers = layersOf(fields.stack) ?? express4 ?? express5Layers(fields)
  if (layers === undefined) return undefined
  const position = layers.findIndex((layer) => layer.handle === own)
  if (position === -1) return undefined
  return layers
    .slice(0, position)
    .filter((layer, index) => {
      const name = (layer.handle as { name?: unknown } | undefined)?.name
      return !(layers === express4 && index < 2 && typeof name === 'string' && EXPRESS_4_INIT.has(name))
    })
    .map((layer) => layer.handle)
}
