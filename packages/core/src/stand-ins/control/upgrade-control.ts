import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import { answerSocket } from '../../http/answer-socket.js'
import type { FetchHandshake, FetchUpgradeStep, Handshake, UpgradeStep } from '../stand-in.js'
import { refuseUpgradeFault, upgradeFaultResponse } from './fault-answer.js'
import type { ResolvedFaults } from './options/resolve-control.js'
import { delayOf, failsNow, faultsFor } from './request-faults.js'
import type { RouteControl } from './route-control.js'

/**
 * The faults a WebSocket handshake at `path` gets now: `undefined` while they are off or none
 * applies. Shared by the Node and the Fetch front ends.
 *
 * @example
 * const faults = upgradeFaultsOf(entry, req, '/live')
 */
export function upgradeFaultsOf(
  entry: RouteControl,
  req: Pick<IncomingMessage, 'method'>,
  path: string,
): ResolvedFaults | undefined {
  const { state, control, route } = entry
  return state.faultsOn ? faultsFor(control, state.faults, route.prefix, req as never, path) : undefined
}

/**
 * Backend control on a WebSocket handshake of a `ws` route, as the control step does it for a
 * request: while its faults are on, the handshake waits its `latency`, then is refused
 * (`failRate`: `failWith`'s status on the socket, or the socket dropped for `'reset'`) or
 * handed on to `pass`. A client that leaves during the wait is not forwarded. `throttle` does
 * not pace WebSocket messages.
 *
 * @example
 * controlUpgrade(entry, req, socket, '/live', () => forwardUpgrade(req, socket, head, route, path, deps))
 */
export function controlUpgrade(
  entry: RouteControl,
  req: IncomingMessage,
  socket: Duplex,
  path: string,
  pass: () => void,
): void {
  const faults = upgradeFaultsOf(entry, req, path)
  const { route } = entry
  if (faults === undefined) {
    pass()
    return
  }
  const act = (): void => {
    if (failsNow(faults)) refuseUpgradeFault(socket, faults.failWith, route.prefix)
    else pass()
  }
  const delay = delayOf(faults.latency)
  if (delay === 0) {
    act()
    return
  }
  const timer = setTimeout(() => {
    socket.off('close', cancel)
    socket.off('error', drop)
    if (!socket.destroyed) act()
  }, delay)
  const cancel = (): void => clearTimeout(timer)
  // The server stopped listening to the socket's errors when it handed the upgrade over: a
  // client that resets during the wait must not become an uncaught 'error'.
  const drop = (): void => {
    socket.destroy()
  }
  socket.once('close', cancel)
  socket.once('error', drop)
}

/**
 * The route a WebSocket handshake goes to: with `targets`, the target in use now (as the
 * switch picks it for requests), else the route itself.
 *
 * @example
 * forwardUpgrade(req, socket, head, routeInUse(route, entry), path, deps)
 */
export function routeInUse(
  route: ResolvedForwardRoute,
  entry: RouteControl | undefined,
): ResolvedForwardRoute {
  const name = entry?.state.target
  const choice =
    name === undefined ? undefined : entry?.control.targets.find((target) => target.name === name)
  if (choice === undefined || (choice.url === route.target && choice.socketPath === route.socketPath))
    return route
  return { ...route, target: choice.url, socketPath: choice.socketPath }
}

/**
 * The control's step on a `ws` route's WebSocket handshakes (see `UpgradeStep`): the route's
 * faults (`controlUpgrade`), then on to the target in use (`routeInUse`). It takes every handshake,
 * since it may hold one for its latency: one that nothing after it takes (a mock route's echo off
 * its path) is answered 404, as the proxy answers it after an origin check.
 *
 * @example
 * const slot = { step, upgrade: createControlUpgrade(entry) }
 */
export function createControlUpgrade(entry: RouteControl): UpgradeStep {
  return function controlUpgradeStep(handshake, next) {
    const { req, socket, path, route } = handshake
    controlUpgrade(entry, req, socket, path, () => {
      // The target in use once the wait is over, as the switch picks it for requests.
      const inUse: Handshake =
        route.kind === 'forward' ? { ...handshake, route: routeInUse(route, entry) } : handshake
      if (!next(inUse)) answerSocket(socket, 404, 'Not Found\n')
    })
    return true
  }
}

/**
 * The control's step on a `ws` route's handshakes in the Fetch handler (see `FetchUpgradeStep`):
 * while its faults are on, the handshake waits its `latency`, then is refused (`failRate`:
 * `failWith`'s status, or a network error for `'reset'`) or handed on to the target in use.
 *
 * @example
 * const slot = { step, fetchUpgrade: createFetchControlUpgrade(entry) }
 */
export function createFetchControlUpgrade(entry: RouteControl): FetchUpgradeStep {
  return async function controlFetchUpgrade(handshake, next) {
    const { req, path, route } = handshake
    const faults = upgradeFaultsOf(entry, req, path)
    if (faults !== undefined) {
      const delay = delayOf(faults.latency)
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
      if (failsNow(faults)) return upgradeFaultResponse(faults.failWith, route.prefix)
    }
    const inUse: FetchHandshake =
      route.kind === 'forward' ? { ...handshake, route: routeInUse(route, entry) } : handshake
    return next(inUse)
  }
}
