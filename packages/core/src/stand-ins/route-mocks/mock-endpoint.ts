import type { ProxyRequest, ProxyResponse } from '../../http/proxy-types.js'
import { readJsonBody } from '../../http/read-json-body.js'

/**
 * An exchange as "Mock this answer" reads it: the inspector's record has these fields, and the
 * answer's header lines are read through the function the writer is given (see
 * `createMockWriter`), so this stand-in never imports the inspector above it.
 */
export interface MockableExchange {
  /** The route's prefix. */
  readonly route: string
  readonly method: string
  /** The request target as the client sent it (path and query). */
  readonly url: string
  /** The answer's status; 0 when none was sent. */
  readonly status: number
  /** The answer ended before it was complete. */
  readonly aborted: boolean
  /** The answer's body, when one was kept. */
  readonly responseBody: Buffer | undefined
  /** The kept body was cut at the inspector's limit. */
  readonly bodiesTruncated: boolean
}

/** What "Mock this answer" needs from the routes with `mocks` (see mock-from-exchange.ts). */
export interface MockWriter<Exchange extends MockableExchange = MockableExchange> {
  /** The routes with `mocks`, and the folder each one's files go to (relative to the root). */
  routes(): readonly { readonly route: string; readonly folder: string }[]
  /** Writes the mock file of a recorded exchange: its status and body, what the page is told. */
  write(record: Exchange): Promise<{ readonly status: number; readonly body: unknown }>
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
export function serveMock<Exchange extends MockableExchange>(
  req: ProxyRequest,
  res: ProxyResponse,
  writer: MockWriter<Exchange>,
  recordOf: (id: number) => Exchange | undefined,
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
