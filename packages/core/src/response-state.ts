import type { ProxyResponse } from './options.js'

/**
 * Whether the client's side of a response is gone (its connection or HTTP/2 stream closed or
 * destroyed), so nothing can be sent any more. `ServerResponse` says so in `destroyed`; Node
 * 20's `Http2ServerResponse` has no `destroyed` of its own, its stream has.
 *
 * @example
 * if (isResponseClosed(res)) return
 */
export function isResponseClosed(res: ProxyResponse): boolean {
  if ('stream' in res) return res.stream.destroyed
  return res.destroyed
}
