/** Methods the browser uppercases; any other method is sent exactly as written (Fetch standard §2.2.1). */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'])

/**
 * Normalizes a method as `fetch` and `XMLHttpRequest` do: only DELETE, GET, HEAD, OPTIONS,
 * POST and PUT are uppercased, so `patch` stays `patch` and matches no `PATCH` in
 * `Access-Control-Allow-Methods`.
 */
export function normalizeMethod(method: string): string {
  const upper = method.toUpperCase()
  return NORMALIZED_METHODS.has(upper) ? upper : method
}
