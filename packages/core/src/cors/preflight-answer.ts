import type { ResolvedCorsOptions } from '../config/resolve-cors-options.js'
import { takesFlatHead } from '../http/response-head.js'
import { applyCorsDecision, type CorsDecision, type CorsResponse } from './cors-decision.js'

/**
 * A response a preflight can be answered on: `http` and `http2` (compatibility API) responses
 * both fit, though `@types/node` only lets the first take a flat header list (Node's http2
 * compatibility `writeHead` has taken one since before the Node 20 we require).
 */
export interface PreflightResponse extends CorsResponse {
  writeHead(status: number, headers: string[]): unknown
}

/**
 * Ends a locally answered preflight. A 204 carries no `Content-Length` (RFC 9110 §8.6: a server
 * must not send one with 204, and the status alone says there is no body); any other status
 * (`optionsSuccessStatus: 200` for old clients) gets `Content-Length: 0`, so a client does not
 * wait for a body that never comes. The `cors` package sends `Content-Length: 0` on 204 too; we do not.
 *
 * @example
 * applyCorsDecision(res, decision)
 * endPreflight(res, policy)
 */
export function endPreflight(res: CorsResponse, policy: ResolvedCorsOptions): void {
  if (res.headersSent) return
  res.statusCode = policy.optionsSuccessStatus
  if (policy.optionsSuccessStatus !== 204) res.setHeader('content-length', '0')
  res.end()
}

/**
 * Answers a preflight with the policy's status and the decision's headers, as
 * `applyCorsDecision` then `endPreflight` do, in one `writeHead` with the decision's
 * precomputed head. Node then writes that list as it is, where header by header it would check
 * and store each one first: the answer a page waits for before every preflighted call costs
 * little more than the bare status line. A `Vary` set before (by a middleware ahead of us) is
 * merged the slow way, header by header, as is the head of a response whose `writeHead` a
 * middleware replaced (`takesFlatHead`); headers of other names set before are kept either way,
 * and ours replace those of the same name (`writeHead` over headers already set does that).
 *
 * @example
 * if (decision.preflight && !decision.disabled) answerPreflight(res, decision, policy)
 */
export function answerPreflight(
  res: PreflightResponse,
  decision: CorsDecision,
  policy: ResolvedCorsOptions,
): void {
  if (res.headersSent) return
  if (res.getHeader('vary') === undefined && takesFlatHead(res)) {
    // Node only reads the list (and may be handed the same one again by the next preflight).
    res.writeHead(policy.optionsSuccessStatus, decision.preflightHead as string[])
    res.end()
    return
  }
  applyCorsDecision(res, decision)
  endPreflight(res, policy)
}
