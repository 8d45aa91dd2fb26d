/*
 * The words the overlay's OpenAPI card and the inspector's "OpenAPI" section show for a violation
 * of a route's `openapi` document (browser code, pure: no DOM, so a unit test runs it without a
 * page). The data comes from the dev server (`/__cors-dev-proxy/violations`, and the exchange
 * views' `violations`); what it quotes came from the page's call or the backend's answer, so the
 * callers put every word here into the page with `textContent`, never as HTML.
 */

/** One way an exchange breaks the route's OpenAPI document (an exchange view's `violations`). */
export interface Violation {
  /** Which half broke it: what the page sent, or what came back. */
  readonly in: 'request' | 'response'
  /** The document's operation, `GET /pets/{id}`. */
  readonly operation: string
  /** The JSON pointer into the body (`/0/name`), or what names the parameter, header or status. */
  readonly pointer: string
  readonly message: string
  /** What the document expects there, when it says (`string`, `200, 404`). */
  readonly expected?: string
  /** What came instead, when there is a value to quote. */
  readonly actual?: string
}

/** One distinct violation as `GET /__cors-dev-proxy/violations` lists it. */
export interface ViolationEntry extends Violation {
  /** The route's prefix (`/api`). */
  readonly route: string
  /** How many exchanges broke the document this way since the dev server started. */
  readonly count: number
  /** The last exchange that did (its id in the inspector), when the inspector recorded it. */
  readonly lastExchange?: number
  /** That exchange's method and URL (as the page asked, secrets masked), when the list gives them. */
  readonly method?: string
  readonly url?: string
}

/** A same-origin call of the page, as the overlay's wrappers saw it end. */
export interface PageCall {
  readonly method: string
  /** The absolute URL. */
  readonly url: string
}

/**
 * What makes two violations the same card: the route, the operation, the side, the pointer and
 * the message (the value that came may differ from one call to the next).
 *
 * @example
 * violationKey({ in: 'response', operation: 'GET /pets', pointer: '/0/name', message: 'is required' })
 * // 'openapi response GET /pets /0/name is required'
 */
export function violationKey(violation: Violation & { readonly route?: string }): string {
  return `openapi ${violation.route ?? ''} ${violation.in} ${violation.operation} ${violation.pointer} ${violation.message}`
}

/**
 * Where it is, in words: the side, the operation and the pointer (`(the document root)` for an
 * empty pointer, which is the whole body).
 *
 * @example
 * violationWhere({ in: 'response', operation: 'GET /pets/{id}', pointer: '/name', message: '' })
 * // 'response of GET /pets/{id}, at /name'
 */
export function violationWhere(violation: Violation): string {
  const pointer = violation.pointer === '' ? '(the whole body)' : violation.pointer
  return `${violation.in} of ${violation.operation}, at ${pointer}`
}

/**
 * What the document expects against what came, as one line; `undefined` when neither is known.
 *
 * @example
 * expectedVsActual({ ...violation, expected: 'integer', actual: '"seven"' })
 * // 'expected integer, got "seven"'
 */
export function expectedVsActual(violation: Violation): string | undefined {
  if (violation.expected === undefined && violation.actual === undefined) return undefined
  return `expected ${violation.expected ?? '(not said)'}, got ${violation.actual ?? '(not shown)'}`
}

/**
 * The overlay title's words for its OpenAPI cards.
 *
 * @example
 * violationsTitle(3) // '3 OpenAPI violations'
 */
export function violationsTitle(count: number): string {
  return count === 1 ? 'an OpenAPI violation' : `${count} OpenAPI violations`
}

/** Whether a value read off the wire is a violation as the dev server writes it. */
function isViolation(value: unknown): value is Violation {
  if (typeof value !== 'object' || value === null) return false
  const one = value as Record<string, unknown>
  return (
    (one.in === 'request' || one.in === 'response') &&
    typeof one.operation === 'string' &&
    typeof one.pointer === 'string' &&
    typeof one.message === 'string' &&
    (one.expected === undefined || typeof one.expected === 'string') &&
    (one.actual === undefined || typeof one.actual === 'string')
  )
}

/**
 * The entries of the `/violations` answer that have the shape the overlay shows; anything else is
 * dropped (the page never renders what it cannot read).
 *
 * @example
 * readViolationEntries(await answer.json())
 */
export function readViolationEntries(body: unknown): ViolationEntry[] {
  const list = Array.isArray(body)
    ? body
    : Array.isArray((body as { violations?: unknown } | null)?.violations)
      ? (body as { violations: unknown[] }).violations
      : []
  return list.filter(
    (one): one is ViolationEntry =>
      isViolation(one) &&
      typeof (one as { count?: unknown }).count === 'number' &&
      typeof (one as { route?: unknown }).route === 'string' &&
      ['number', 'undefined'].includes(typeof (one as { lastExchange?: unknown }).lastExchange) &&
      ['string', 'undefined'].includes(typeof (one as { method?: unknown }).method) &&
      ['string', 'undefined'].includes(typeof (one as { url?: unknown }).url),
  )
}

/** Whether a path ends with an operation's path template (`/pets/{petId}` ends `/api/v1/pets/7`). */
function endsWithTemplate(path: string, template: string): boolean {
  const segments = path.split('/')
  const wanted = template.replace(/^\//, '').split('/')
  if (wanted.length >= segments.length) return false
  const tail = segments.slice(segments.length - wanted.length)
  return wanted.every((part, index) => {
    const segment = tail[index] ?? ''
    return /^\{[^}]*\}$/.test(part) ? segment !== '' : decodeURIComponent(segment) === part
  })
}

/**
 * The page's latest call that an operation names (`GET /pets/{petId}`): same method, and a path
 * that ends with the operation's path (the route's prefix and the document's base path come
 * before it); `undefined` when none does. The list names the operation, not the call, so the
 * card shows the page's own call that fits it.
 *
 * @example
 * callOfOperation([{ method: 'GET', url: 'http://localhost:5173/api/pets/7' }], 'GET /pets/{petId}')
 * // { method: 'GET', url: 'http://localhost:5173/api/pets/7' }
 */
export function callOfOperation(calls: readonly PageCall[], operation: string): PageCall | undefined {
  const space = operation.indexOf(' ')
  const method = operation.slice(0, space).toUpperCase()
  const template = operation.slice(space + 1)
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const call = calls[index] as PageCall
    if (call.method.toUpperCase() !== method) continue
    try {
      if (endsWithTemplate(new URL(call.url).pathname.replace(/\/$/, ''), template)) return call
    } catch {
      // A path that does not decode is not this operation's.
    }
  }
  return undefined
}
