import type { CorsDevProxyError } from '../../src/config/errors.js'
import { isPlainObject } from '../../src/config/option-path.js'
import { resolveOptions } from '../../src/config/resolve-options.js'
import { createCorsMiddleware } from '../../src/cors/cors-middleware.js'
import { createJsonpMiddleware } from '../../src/jsonp/jsonp-middleware.js'
import { createMockBackend } from '../../src/stand-ins/mock-backend/mock-backend.js'
import { startMockBackend } from '../../src/stand-ins/mock-backend/start-mock-backend.js'

/**
 * Reads the "Fix it like this" examples of configuration errors and checks that each one is a
 * configuration that works where the message says it goes. The rules, by the example's shape:
 *
 * - `({ '/api': … }, { log: 'debug' })`, an argument list: `resolveOptions(...arguments)`; only
 *   for an option under `routes` or `options`.
 * - `createMockBackend({ … })`, a call: evaluated with the public factories in scope, and it must
 *   not throw (a server it starts is closed again); the factory must be the one the path's root
 *   belongs to (`createCorsMiddleware` for `cors.…`, see below).
 * - `{ '/api': … }`, an object whose keys all start with `/`: a routes object, `resolveOptions(example)`.
 * - any other value is read against the error's option path, in a minimal valid configuration
 *   (routes `{ [prefix]: { target: 'http://localhost:3000' } }`, no shared options, empty
 *   standalone options):
 *   - an object with a key that names a segment of the path (`{ cors: … }` at
 *     `routes['/api'].cors.origin`, `{ origin: … }` at `cors.origin`) is merged into the object
 *     holding that segment (the route, the `cors` object), the deepest such segment winning,
 *     the unknown key of an UNKNOWN_OPTION and the root excluded; merged into a route with a
 *     truthy `mock` or `targets`, it replaces the route's target;
 *   - otherwise, for UNKNOWN_OPTION, an object is merged into the object that held the unknown
 *     key (`{ changeOrigin: true }` at `routes['/api'].chageOrigin`);
 *   - otherwise the example is the option's new value (`'http://localhost:3000'` at
 *     `routes['/api'].target`, `{ log: 'debug' }` at `options`). An example may not replace one
 *     entry of a list (`origin[1]`): it has to show the list.
 *
 *   The configuration is then built by what the path's root belongs to: `routes` and `options`
 *   by `resolveOptions(routes, options)`, `cors` by `createCorsMiddleware`, `mock` by
 *   `createMockBackend`, `jsonp` by `createJsonpMiddleware`, and `port`, `host`, `https`,
 *   `http2` by `startMockBackend`.
 *
 * Every way must succeed without a warning. ` or ` separates alternatives only between complete
 * expressions, each checked on its own; anything else (prose after the code) fails to parse.
 */

/** The example fix a `CorsDevProxyError` prints, or `undefined` when it prints none. */
export function exampleOf(error: CorsDevProxyError): string | undefined {
  const marker = '\n  Fix it like this: '
  const at = error.message.indexOf(marker)
  return at === -1 ? undefined : error.message.slice(at + marker.length)
}

/** Names an example may use without defining them: the factories it calls, and a TLS pair the user has. */
export interface ExampleScope {
  readonly cert: string
  readonly key: string
}

/** How one alternative of an example was checked, for counts and failure messages. */
export interface CheckedAlternative {
  readonly source: string
  readonly shape: 'arguments' | 'call' | 'routes' | 'fragment' | 'value'
  /** What was built, e.g. `resolveOptions({"/api":{"target":…,"cors":{…}}}, undefined)`. */
  readonly built: string
}

function parses(source: string): boolean {
  if (source.trim() === '') return false
  try {
    new Function(`return (${source}\n)`)
    return true
  } catch {
    return false
  }
}

/**
 * Splits an example on ` or ` where both sides are complete JavaScript expressions, or returns
 * `undefined` when it is not a list of expressions (prose, a fragment such as `pathRewrite: …`).
 */
export function splitAlternatives(example: string): string[] | undefined {
  if (parses(example)) return [example]
  for (let at = example.indexOf(' or '); at !== -1; at = example.indexOf(' or ', at + 1)) {
    const head = example.slice(0, at)
    if (!parses(head)) continue
    const rest = splitAlternatives(example.slice(at + 4))
    if (rest !== undefined) return [head, ...rest]
  }
  return undefined
}

type Segment = { readonly name: string } | { readonly key: string } | { readonly index: number }

/** `routes['/api'].cors.origin[1]` → `routes`, key `/api`, `cors`, `origin`, index 1. */
export function parseOptionPath(option: string): Segment[] {
  const root = /^[A-Za-z_$][\w$]*/.exec(option)
  if (root === null) throw new Error(`cannot read the option path ${option}`)
  const segments: Segment[] = [{ name: root[0] }]
  let rest = option.slice(root[0].length)
  while (rest !== '') {
    const name = /^\.([A-Za-z_$][\w$]*)/.exec(rest)
    const index = /^\[(\d+)\]/.exec(rest)
    const key = /^\[('(?:[^'\\]|\\.)*')\]/.exec(rest)
    const match = name ?? index ?? key
    if (match === null) throw new Error(`cannot read the option path ${option} at ${rest}`)
    if (name) segments.push({ name: name[1] as string })
    else if (index) segments.push({ index: Number(index[1]) })
    else segments.push({ key: new Function(`return ${key?.[1]}`)() as string })
    rest = rest.slice(match[0].length)
  }
  return segments
}

const STANDALONE_ROOTS = new Set(['cors', 'mock', 'jsonp'])
const START_ROOTS = new Set(['port', 'host', 'https', 'http2'])
const TARGET = 'http://localhost:3000'

function segmentName(segment: Segment): string | undefined {
  return 'name' in segment ? segment.name : undefined
}

function segmentKey(segment: Segment): string | number {
  return 'name' in segment ? segment.name : 'key' in segment ? segment.key : segment.index
}

/** Where a root's configuration lives in the document, and how it is built. */
function documentFor(segments: Segment[]): { document: Record<string, unknown>; path: Segment[] } {
  const root = segmentName(segments[0] as Segment) as string
  if (root === 'routes' || root === 'options') {
    const prefix = segments[0] && segments[1] && 'key' in segments[1] ? segments[1].key : '/api'
    return { document: { routes: { [prefix]: { target: TARGET } } }, path: segments }
  }
  if (STANDALONE_ROOTS.has(root)) return { document: { [root]: {} }, path: segments }
  if (START_ROOTS.has(root)) return { document: { start: {} }, path: [{ name: 'start' }, ...segments] }
  throw new Error(`no context known for the option path root ${root}`)
}

/** The object at `path` in `document`, created (as `{}`) where missing or not an object. */
function objectAt(document: Record<string, unknown>, path: Segment[]): Record<string, unknown> {
  let current = document
  for (const segment of path) {
    const key = segmentKey(segment)
    const next = current[key]
    if (isPlainObject(next)) current = next
    else current = current[key] = {}
  }
  return current
}

/** Where an example went in the document: merged into an object, or set as the option's value. */
interface Placed {
  readonly document: Record<string, unknown>
  readonly shape: 'fragment' | 'value'
}

function place(value: unknown, error: CorsDevProxyError): Placed {
  const segments = parseOptionPath(error.option)
  const { document, path } = documentFor(segments)
  // The document's slot (index 0) is never a place to merge into: an example that wraps a
  // standalone factory's argument in `{ cors: … }` is not what that factory takes.
  if (isPlainObject(value)) {
    // An unknown key is never what the example sets, even when it has the name of its level
    // (`cors: { cors: … }`): the search starts above it.
    const from = error.code === 'UNKNOWN_OPTION' ? path.length - 2 : path.length - 1
    for (let at = from; at >= 1; at--) {
      const name = segmentName(path[at] as Segment)
      if (name === undefined || !Object.hasOwn(value, name)) continue
      merge(objectAt(document, path.slice(0, at)), value, path.slice(0, at))
      return { document, shape: 'fragment' }
    }
    if (error.code === 'UNKNOWN_OPTION' && path.length >= 2) {
      merge(objectAt(document, path.slice(0, -1)), value, path.slice(0, -1))
      return { document, shape: 'fragment' }
    }
  }
  const last = path.at(-1) as Segment
  if ('index' in last) throw new Error(`the example replaces one entry of a list (${error.option})`)
  objectAt(document, path.slice(0, -1))[segmentKey(last)] = value
  return { document, shape: 'value' }
}

function merge(into: Record<string, unknown>, fragment: Record<string, unknown>, at: Segment[]): void {
  const isRoute = at.length === 2 && segmentName(at[0] as Segment) === 'routes'
  // A route either forwards to `target` or picks among `targets` or mocks: the example replaces the target.
  if (isRoute && (fragment.mock || fragment.targets) && !('target' in fragment)) delete into.target
  Object.assign(into, fragment)
}

async function build(document: Record<string, unknown>, warnings: string[]): Promise<void> {
  const warn = (message: string): void => {
    warnings.push(message)
  }
  if ('routes' in document || 'options' in document) {
    const resolved = resolveOptions(document.routes as never, document.options as never)
    warnings.push(...resolved.warnings)
  } else if ('cors' in document) createCorsMiddleware(document.cors as never, { warn })
  else if ('mock' in document) await createMockBackend(document.mock as never).close()
  else if ('jsonp' in document) createJsonpMiddleware(document.jsonp as never)
  else if ('start' in document) await (await startMockBackend(document.start as never)).close()
}

function show(value: unknown): string {
  return JSON.stringify(value, (_key, value: unknown) =>
    value instanceof RegExp || typeof value === 'function' ? String(value) : value,
  )
}

/** The factory a call may use, by the root of the option path it fixes. */
const FACTORIES_BY_ROOT: Readonly<Record<string, readonly string[]>> = {
  cors: ['createCorsMiddleware'],
  mock: ['createMockBackend', 'startMockBackend'],
  jsonp: ['createJsonpMiddleware'],
  port: ['startMockBackend'],
  host: ['startMockBackend'],
  https: ['startMockBackend'],
  http2: ['startMockBackend'],
}

/** Evaluates an expression with the public factories and the user's TLS pair in scope. */
function evaluate(source: string, scope: ExampleScope, warnings: string[]): unknown {
  const names = {
    createCorsMiddleware: (options: never) =>
      createCorsMiddleware(options, { warn: (message) => warnings.push(message) }),
    createMockBackend,
    createJsonpMiddleware,
    startMockBackend,
    cert: scope.cert,
    key: scope.key,
  }
  return new Function(...Object.keys(names), `return (${source}\n)`)(...Object.values(names))
}

async function call(
  source: string,
  error: CorsDevProxyError,
  scope: ExampleScope,
  warnings: string[],
): Promise<void> {
  const callee = /^[A-Za-z_$][\w$]*/.exec(source)?.[0] as string
  const root = segmentName(parseOptionPath(error.option)[0] as Segment) as string
  if (!FACTORIES_BY_ROOT[root]?.includes(callee)) {
    throw new Error(`${callee}(…) does not configure ${root}`)
  }
  const result = evaluate(source, scope, warnings)
  const settled = result instanceof Promise ? await result : result
  const closable = settled as { close?: () => unknown } | undefined
  if (typeof closable?.close === 'function') await closable.close()
}

/**
 * Checks one alternative of an example printed for `error`; throws, naming what was built,
 * when the alternative does not parse, does not evaluate, or does not resolve without warnings.
 */
export async function checkAlternative(
  source: string,
  error: CorsDevProxyError,
  scope: ExampleScope,
): Promise<CheckedAlternative> {
  const trimmed = source.trim()
  const warnings: string[] = []
  let shape: CheckedAlternative['shape']
  let built: string
  try {
    if (trimmed.startsWith('(') && parses(`list${trimmed}`)) {
      shape = 'arguments'
      if (!/^(routes|options)\b/.test(error.option))
        throw new Error('an argument list only fixes routes or options')
      const args = new Function('list', `return list${trimmed}`)(
        (...values: unknown[]) => values,
      ) as unknown[]
      built = `resolveOptions(${args.map(show).join(', ')})`
      const resolved = resolveOptions(...(args as Parameters<typeof resolveOptions>))
      warnings.push(...resolved.warnings)
    } else if (/^[A-Za-z_$][\w$]*\s*\(/.test(trimmed)) {
      shape = 'call'
      built = trimmed
      await call(trimmed, error, scope, warnings)
    } else {
      const value = evaluate(trimmed, scope, warnings)
      const keys = isPlainObject(value) ? Object.keys(value) : []
      if (keys.length > 0 && keys.every((key) => key.startsWith('/'))) {
        shape = 'routes'
        built = `resolveOptions(${show(value)})`
        warnings.push(...resolveOptions(value as never).warnings)
      } else {
        const placed = place(value, error)
        shape = placed.shape
        built = show(placed.document)
        await build(placed.document, warnings)
      }
    }
  } catch (failure) {
    const why = failure instanceof Error ? failure.message : String(failure)
    throw new Error(`the example ${trimmed} for ${error.option} does not work: ${why}`)
  }
  if (warnings.length > 0) {
    throw new Error(`the example ${trimmed} for ${error.option} warns (${built}): ${warnings.join('; ')}`)
  }
  return { source: trimmed, shape, built }
}

/**
 * Checks every alternative of the example `error` prints. Throws when it prints none, when the
 * example is not a list of complete expressions, or when an alternative fails.
 */
export async function checkExample(
  error: CorsDevProxyError,
  scope: ExampleScope,
): Promise<CheckedAlternative[]> {
  const example = exampleOf(error)
  if (example === undefined) throw new Error(`${error.option}: the message shows no example`)
  const alternatives = splitAlternatives(example)
  if (alternatives === undefined) {
    throw new Error(
      `the example for ${error.option} is not JavaScript (or alternatives joined by " or "): ${example}`,
    )
  }
  const checked: CheckedAlternative[] = []
  for (const alternative of alternatives) checked.push(await checkAlternative(alternative, error, scope))
  return checked
}
