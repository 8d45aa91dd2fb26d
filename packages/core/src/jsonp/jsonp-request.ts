import { jsonpBody } from './jsonp-response.js'

/**
 * The callback parameter's value in a request target (`/users?callback=cb`), or `undefined`
 * when the parameter is absent. Only the query is read; a `#fragment` never reaches a server
 * but is ignored anyway. An empty value (`?callback=`) is returned as `''` (and then rejected).
 *
 * @example
 * jsonpCallbackOf('/users?page=2&callback=handle', 'callback') // 'handle'
 */
export function jsonpCallbackOf(target: string, param: string): string | undefined {
  const question = target.indexOf('?')
  if (question === -1) return undefined
  const hash = target.indexOf('#', question)
  const query = target.slice(question + 1, hash === -1 ? undefined : hash)
  return new URLSearchParams(query).get(param) ?? undefined
}

/**
 * Wraps a JSON answer as a JSONP script, or returns `undefined` when the text is not JSON.
 * The JSON is parsed and serialized again rather than pasted in: the script runs in the page,
 * so only data, never code a misbehaving upstream sent, may end up in it.
 *
 * @example
 * wrapJsonText('cb', '{ "a": 1 }') // "/**\/ typeof cb === 'function' && cb({\"a\":1});"
 */
export function wrapJsonText(callback: string, text: string): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  return jsonpBody(callback, JSON.stringify(value))
}
