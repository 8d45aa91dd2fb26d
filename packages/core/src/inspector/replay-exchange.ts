import { Agent, request } from 'undici'
import { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js'
import type { ExchangeRecord } from './exchange-ring.js'
import { REPLAY_HEADER } from './record-exchange.js'

/** Sends an exchange's request again, through the dev server. */
export interface Replayer {
  /**
   * Resends `record` to the dev server's own address, with its original headers (credentials
   * included: they never leave the server) and its body when one was kept, so it takes the same
   * route, hooks and CORS step, and is recorded as a new exchange marked `replayOf`. Resolves
   * with the new answer's status, or rejects with a reason to show.
   */
  replay(record: ExchangeRecord, token: string): Promise<number>
  close(): Promise<void>
}

/** Headers a replay never copies: hop-by-hop ones, HTTP/2 pseudo-headers (`:authority` becomes `host`), the body's framing. */
function replayHeaders(record: ExchangeRecord, token: string): Record<string, string> {
  const headers: Record<string, string> = {}
  const lines = record.requestHeaders
  for (let index = 0; index + 1 < lines.length; index += 2) {
    const name = (lines[index] as string).toLowerCase()
    const value = lines[index + 1] as string
    if (name === ':authority') headers.host ??= value
    if (name.startsWith(':') || HOP_BY_HOP_HEADERS.has(name) || name === 'content-length') continue
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  headers[REPLAY_HEADER] = token
  return headers
}

/**
 * The replayer of one dev server, reached at `ownUrl()` (its loopback address). Its own
 * certificate is usually self-signed: trusted for this connection only.
 *
 * @example
 * const replayer = createReplayer(() => 'http://127.0.0.1:5173')
 * await replayer.replay(record, recorder.replayToken(record.id)) // 200
 */
export function createReplayer(ownUrl: () => string | undefined): Replayer {
  let agent: Agent | undefined
  return {
    async replay(record, token) {
      const base = ownUrl()
      if (base === undefined) throw new Error('the dev server is not listening')
      const hasBody = record.requestBytes > 0 || record.method === 'POST' || record.method === 'PUT'
      if (
        hasBody &&
        record.requestBytes > 0 &&
        (record.requestBody === undefined || record.bodiesTruncated)
      ) {
        throw new Error('its request body was not kept: open the inspector before the call to replay it')
      }
      agent ??= new Agent({ connect: { rejectUnauthorized: false } })
      const answer = await request(`${base}${record.url}`, {
        method: record.method as 'GET',
        headers: replayHeaders(record, token),
        body: record.requestBody,
        dispatcher: agent,
        // No deadline of ours: the replayed call takes as long as its route lets it (no limit
        // unless the route sets `timeout`, which then answers 504 itself), as the page's call did.
        headersTimeout: 0,
      })
      await answer.body.dump()
      return answer.statusCode
    },
    async close() {
      // Once only: a dev server closes the proxy on its own `close` and again when told to, and
      // undici rejects a second close of the same agent.
      const closing = agent
      agent = undefined
      await closing?.close()
    },
  }
}
