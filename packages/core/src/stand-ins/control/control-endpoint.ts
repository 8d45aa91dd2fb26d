import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { readJsonBody } from '../../http/read-json-body.js'
import type { ControlBoard } from './control-board.js'

/** The part of a body the control API reads: a small JSON object. */
const CONTROL_LIMIT = 16 * 1024

/**
 * `/__cors-dev-proxy/control`, the live switches' API (the guard ran before): `GET` lists each
 * route with control options or recordings (its targets and the one in use, its faults and
 * whether they are on, whether it records); `POST` with a JSON body (`{ "route": "/api",
 * "target": "staging" }`, `{ "route": "/api", "latency": 300, "failRate": 0.5, "faultsOn": true }`,
 * `{ "route": "/api", "record": false }`) changes one route's state and answers its new view. A change is never made by `GET`, nor by a body that is not `application/json`, which
 * a cross-site form cannot send. Returns `false` for any other method, for the caller's 404.
 *
 * @example
 * if (path === '/control' && serveControl(req, res, board, sendJson)) return
 */
export function serveControl(
  req: ProxyRequest,
  res: ProxyResponse,
  board: ControlBoard,
  sendJson: (res: ProxyResponse, status: number, value: unknown) => void,
): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') {
    sendJson(res, 200, board.view())
    return true
  }
  if (req.method !== 'POST') return false
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
    sendJson(res, 415, { error: 'send the change as Content-Type: application/json' })
    return true
  }
  void readJsonBody(req, CONTROL_LIMIT).then((body) => {
    const answer = board.apply(body)
    sendJson(res, answer.status, answer.body)
  })
  return true
}
