import { Agent, type Dispatcher, interceptors } from 'undici'
import { RenewableDispatcher } from './renewable-dispatcher.js'
import { WrappingDispatcher } from './wrapping-dispatcher.js'

/**
 * The most redirects a browser follows: the Fetch standard's HTTP-redirect fetch returns a
 * network error when "request's redirect count is 20" (https://fetch.spec.whatwg.org/#http-redirect-fetch).
 */
export const MAX_REDIRECTS = 20

/** A redirect past {@link MAX_REDIRECTS} (or the route's own limit): answered 502, as a browser's fetch fails. */
export class TooManyRedirects extends Error {
  readonly code = 'ERR_TOO_MANY_REDIRECTS'
  constructor(readonly limit: number) {
    super(`more than ${limit} redirects`)
    this.name = 'TooManyRedirects'
  }
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

/** The Fetch standard's request-body-header names, removed with the body when a redirect turns a request into a GET. */
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
])

/**
 * Below undici's redirect handler, which drops the body of a 301/302 POST it turns into a GET but
 * keeps its `Content-Type` (it only clears `Content-*` for a 303): a hop after the first without a
 * body loses the request-body-header names too, as the Fetch standard's HTTP-redirect fetch does.
 * The hop is told by the handler: undici's redirect handler, with its `history` of URLs followed.
 */
function dropBodyHeadersAfterRedirect(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function dispatchRedirectHop(options, handler) {
      const followed = (handler as { history?: unknown[] }).history?.length ?? 0
      if (followed === 0 || options.body != null || options.headers == null) return dispatch(options, handler)
      const headers = options.headers
      let kept: unknown[] | Record<string, unknown>
      if (Array.isArray(headers)) {
        // undici's redirect handler passes the headers of a later hop as a flat [name, value, ...] list.
        const flat: unknown[] = headers
        kept = []
        for (let i = 0; i < flat.length; i += 2) {
          if (!BODY_HEADERS.has(String(flat[i]).toLowerCase())) kept.push(flat[i], flat[i + 1])
        }
      } else {
        kept = Object.fromEntries(
          Object.entries(headers as Record<string, unknown>).filter(
            ([name]) => !BODY_HEADERS.has(name.toLowerCase()),
          ),
        )
      }
      return dispatch({ ...options, headers: kept as Dispatcher.DispatchOptions['headers'] }, handler)
    }
}

/**
 * Counts the hops of one request (undici's redirect handler starts each on the same handler)
 * and fails the answer that would be one redirect too many, where undici would relay it:
 * the browser fails there (its redirect count is at the limit), it does not hand the 3xx on.
 */
function limitRedirects(limit: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function dispatchWithRedirectLimit(options, handler) {
      let hops = 0
      const counted: Dispatcher.DispatchHandler = {
        ...handler,
        onRequestStart(controller, context) {
          hops += 1
          handler.onRequestStart?.(controller, context)
        },
        onResponseStart(controller, statusCode, headers, statusMessage) {
          if (hops > limit && REDIRECT_STATUSES.has(statusCode) && headers.location !== undefined) {
            throw new TooManyRedirects(limit)
          }
          handler.onResponseStart?.(controller, statusCode, headers, statusMessage)
        },
        onRequestUpgrade: handler.onRequestUpgrade?.bind(handler),
        onResponseData: handler.onResponseData?.bind(handler),
        onResponseEnd: handler.onResponseEnd?.bind(handler),
        onResponseError: handler.onResponseError?.bind(handler),
      }
      return dispatch(options, counted)
    }
}

/**
 * A dispatcher for a route with `followRedirects`: an undici `Agent` (a redirect may lead to
 * another origin, which one origin's `Pool` cannot reach) behind undici's redirect interceptor,
 * with every request sent to `origin` first. The interceptor applies the browser's rules
 * (Fetch standard, HTTP-redirect fetch; RFC 9110 section 15.4): a 301 or 302 answer to a POST
 * and a 303 to anything but HEAD are followed with GET and no body (303 also drops the
 * `Content-*` fields); `Authorization`, `Cookie` and `Proxy-Authorization` are not sent to
 * another origin; `Host` is set for each hop. One redirect past `maxRedirections` fails the
 * request ({@link TooManyRedirects}, answered 502) as a browser's fetch fails. A body that was
 * streamed cannot be sent twice: a 307 or 308 after a streamed upload is relayed as it is,
 * for the browser to follow.
 *
 * @example
 * const dispatcher = createRedirectDispatcher('http://localhost:3000', 20, { connect })
 * new Relay({ ... }).start(dispatcher)
 */
export function createRedirectDispatcher(
  origin: string,
  maxRedirections: number,
  options: Agent.Options,
): Dispatcher {
  const open = (): FollowingAgent => {
    const agent = new Agent(options)
    const following = agent.compose(
      dropBodyHeadersAfterRedirect(),
      interceptors.redirect({ maxRedirections }),
      limitRedirects(maxRedirections),
    )
    return new FollowingAgent(following, agent)
  }
  return new OriginDispatcher(origin, open, options.allowH2 === true)
}

/** An agent and the redirect-following dispatcher composed on it, closed and destroyed as one. */
class FollowingAgent extends WrappingDispatcher {
  constructor(
    private readonly following: Dispatcher,
    private readonly agent: Agent,
  ) {
    super()
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.following.dispatch(options, handler)
  }

  protected closeOwned(): Promise<void> {
    return this.agent.close()
  }

  protected destroyOwned(error: Error | null): Promise<void> {
    return this.agent.destroy(error)
  }
}

/**
 * Sends every request to one origin first (an `Agent` needs `origin` in each request's options);
 * with HTTP/2 allowed, its connections are renewed as a multiplexed pool's are (see
 * `RenewableDispatcher`): undici keeps an HTTP/2 connection for one request after another.
 */
class OriginDispatcher extends RenewableDispatcher<FollowingAgent> {
  constructor(
    private readonly origin: string,
    open: () => FollowingAgent,
    private readonly http2: boolean,
  ) {
    super(open)
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.current.dispatch({ ...options, origin: this.origin }, handler)
  }

  /** Over HTTP/1.1 a reset request takes its connection with it: nothing to renew. */
  override noteReset(generation: number): void {
    if (this.http2) super.noteReset(generation)
  }
}
