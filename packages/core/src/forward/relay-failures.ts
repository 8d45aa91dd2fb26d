import { errorCode } from './proxy-error.js'
import { answerBrokenOff } from './relay-response.js'
import { ClientGoneError, type RelayExchange, RelayState } from './relay-state.js'
import { abortResponse, isResponseClosed } from './response-state.js'

/**
 * The answer's body failed after its head arrived, `state` being where the relay was. While an
 * async `proxyRes` hook ran or the body was collected nothing went to the client: it still gets
 * a status (the forwarder's 502), unless it left. Once the head went out no status can be sent
 * any more, so the client's response is broken off: a short body is never taken for a whole one.
 *
 * @example
 * relayBodyFailed(relay, RelayState.Relaying, error)
 */
export function relayBodyFailed(relay: RelayExchange, state: RelayState, error: Error): void {
  const { req, res, label } = relay
  const { logger } = relay.context
  if (state === RelayState.Hooking || state === RelayState.Collecting) {
    relay.held = undefined
    if (relay.gone instanceof ClientGoneError || isResponseClosed(res)) {
      logger.debug(`${req.method} ${req.url}: the client went away during the response of ${label}`)
      return
    }
    answerBrokenOff(req, res, label, error, logger)
    return
  }
  abortResponse(res)
  if (relay.gone instanceof ClientGoneError) {
    logger.debug(`${req.method} ${req.url}: the client went away during the response of ${label}`)
    return
  }
  logger.warn(
    `${req.method} ${req.url} → ${label}: the server broke off its response (${errorCode(error) ?? error.message}); the browser sees a network error: check the server's log`,
    `${label} response broke off`,
  )
}
