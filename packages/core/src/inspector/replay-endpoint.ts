import type { ProxyResponse } from '../http/proxy-types.js'
import { sendJson } from './endpoint-answers.js'
import type { ExchangeRecorder } from './record-exchange.js'
import type { Replayer } from './replay-exchange.js'

/**
 * `POST /__cors-dev-proxy/replay/<id>`: the recorded exchange sent again through the dev server
 * (404 for an exchange the ring no longer keeps, 409 for one that cannot be replayed).
 *
 * @example
 * void serveReplay(res, 12, recorder, replayer, inspector.exchanges)
 */
export async function serveReplay(
  res: ProxyResponse,
  id: number,
  recorder: ExchangeRecorder,
  replayer: Replayer,
  kept: number,
): Promise<void> {
  const record = recorder.ring.get(id)
  if (record === undefined) {
    sendJson(res, 404, { error: `no exchange ${id} (the inspector keeps the last ${kept})` })
    return
  }
  try {
    const status = await replayer.replay(record, recorder.replayToken(id))
    sendJson(res, 200, { replayOf: id, status })
  } catch (error) {
    sendJson(res, 409, {
      error: `cannot replay exchange ${id}: ${error instanceof Error ? error.message : String(error)}`,
    })
  }
}
