import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { readJsonBody } from '../../http/read-json-body.js'
import type { ExchangeRecord } from '../../inspector/exchange-ring.js'

/** What "Mock this answer" needs from the routes with `mocks` (written by route-mocks/, a layer above). */
export interface MockWriter {
  /** The routes with `mocks`, and the folder each one's files go to (relative to the root). */
  routes(): readonly { readonly route: string; readonly folder: string }[]
  /** Writes the mock file of a recorded exchange: its status and body, what the page is told. */
  write(record: ExchangeRecord): Promise<{ readonly status: number; readonly body: unknown }>
}

/** The part of a body this API reads: `{ "id": 12 }`. */
const MOCK_LIMIT = 1024

/**
 * `/__cors-dev-proxy/mock`, "Mock this answer" (the guard ran before): `GET` lists the routes
 * with `mocks` and their folders; `POST` with a JSON body `{ "id": <exchange id> }` writes the
 * mock file of that exchange (see `MockWriter.write`) and answers where. A file is never written
 * by `GET`, nor by a body that is not `application/json`, which a cross-site form cannot send.
 * Returns `false` for any other method, for the caller's 404.
 *
 * @example
 * if (path === '/mock' && serveMock(req, res, writer, (id) => ring.get(id), sendJson)) return
 */
export function serveMock(
  req: ProxyRequest,
  res: ProxyResponse,
  writer: MockWriter,
  recordOf: (id: number) => ExchangeRecord | undefined,
  sendJson: (res: ProxyResponse, status: number, value: unknown) => void,
): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') {
    sendJson(res, 200, { routes: writer.routes() })
    return true
  }
  if (req.method !== 'POST') return false
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
    sendJson(res, 415, { error: 'send { "id": <exchange id> } as Content-Type: application/json' })
    return true
  }
  void readJsonBody(req, MOCK_LIMIT).then(async (body) => {
    const id = (body as { id?: unknown } | undefined)?.id
    if (!Number.isInteger(id)) {
      sendJson(res, 400, { error: 'expected { "id": <exchange id> }' })
      return
    }
    const record = recordOf(id as number)
    if (record === undefined) {
      sendJson(res, 404, { error: `no exchange ${id}: the inspector keeps the last ones only` })
      return
    }
    const answer = await writer.write(record)
    sendJson(res, answer.status, answer.body)
  })
  return true
}
