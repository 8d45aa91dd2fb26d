/*
 * pipeline/: what runs before a route's steps, and the steps' shape. The route matched once per
 * request, longest prefix first (match-route.ts); a request whose target is not in origin form,
 * or a CONNECT, refused (refuse-request.ts); the route's gate, `pathFilter` and `bypass`
 * (route-gate.ts); the per-request notes the forwarder leaves for the debug line and the
 * inspector (request-notes.ts); and the step type, here.
 *
 * The per-route request pipeline: a chain of connect-style steps built once per route, when
 * the proxy is created, and run for every request the route matches.
 *
 * A step is `(req, res, next, path, exchange)`: connect's signature plus the matched,
 * normalized path (with its query) as a fourth argument, so an existing connect middleware fits
 * as a step unchanged, and the request's `Exchange` (pipeline/exchange.ts) as a fifth: where a
 * step that answers notes what answered, for the debug line and the inspector; `undefined` when
 * neither reads it. A step that hands the request to another step hands it on too. A step either answers (and does not call `next`), or calls `next()` to hand the
 * request on, or `next(error)` to leave the chain (the error goes to the dev server's
 * `next`, as in connect). Steps never throw on purpose; a throw is passed on like `next(error)`.
 *
 * Order (`createRoutePipeline` in proxy/create-route-pipeline.ts):
 * 1. CORS, when `route.cors` is set: first, so its headers are on every response of the route,
 *    the forwarder's and the error answers included, and so it can answer a preflight (204)
 *    before anything is forwarded. With `preflightContinue` it calls `next()` instead.
 *    Without `route.cors` there is no step: preflights are forwarded untouched.
 * 2. JSONP, when `route.jsonp` is set: takes over a GET carrying the callback parameter by
 *    intercepting the next step's answer (the target's, the mock's, a replayed or an injected
 *    one) and wrapping it.
 * 3. The backend (`createBackendStep`, proxy/create-backend-step.ts), the last step: it always
 *    answers and never calls `next`. It is made of the stand-ins for the backend (stand-ins/,
 *    each a `StandIn` giving the route a `BackendSlot`). Inside it, each only where the route uses it: the faults of
 *    backend control (`latency`, `failRate`, `throttle`, `faults`: wait, fail, or pace both
 *    bodies), the `mocks` (stand-ins/route-mocks/route-mocks.ts: a request a mock file or key matches is
 *    answered there, with the CORS step's headers on it; JSONP wraps it like any answer), the recordings (`record`, `replay`), then the target: the mock
 *    backend when `route.mock` is set, else the forwarder (`createForwarder`,
 *    forward/create-forwarder.ts), or with `targets` the forwarder of the target in use. A plain
 *    route's backend is the forwarder itself.
 */
import type { NextFunction, ProxyRequest, ProxyResponse } from '../http/proxy-types.js'
import type { Exchange } from './exchange.js'

export type { NextFunction } from '../http/proxy-types.js'

/** One step of a route's pipeline (see the comment at the top of route-pipeline.ts). */
export type RouteStep = (
  req: ProxyRequest,
  res: ProxyResponse,
  next: NextFunction,
  path: string,
  exchange?: Exchange,
) => void

/** A route's whole pipeline; `done` is called when a step passes the request (or an error) on. */
export type RoutePipeline = (
  req: ProxyRequest,
  res: ProxyResponse,
  path: string,
  done: NextFunction,
  exchange?: Exchange,
) => void

/**
 * Composes steps into a pipeline that runs them in order, with connect's `next` semantics (see
 * the top of this file). A single step (the common case: a route with neither `cors` nor
 * `jsonp`) is called directly, with no per-request closure.
 *
 * @example
 * const pipeline = composeSteps([corsStep, forwardStep])
 * pipeline(req, res, '/api/users', next)
 */
export function composeSteps(steps: readonly RouteStep[]): RoutePipeline {
  const [first] = steps
  if (steps.length === 1 && first !== undefined) {
    return function routePipeline(req, res, path, done, exchange) {
      try {
        first(req, res, done, path, exchange)
      } catch (error) {
        done(error)
      }
    }
  }
  return function routePipeline(req, res, path, done, exchange) {
    let index = 0
    const next: NextFunction = (error) => {
      const step = steps[index++]
      if ((error !== undefined && error !== null) || step === undefined) {
        done(error)
        return
      }
      try {
        step(req, res, next, path, exchange)
      } catch (thrown) {
        done(thrown)
      }
    }
    next()
  }
}
