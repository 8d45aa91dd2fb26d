import type { HeaderEntry } from '../http/header-list.js'
import { option, richOption } from './option-entry.js'
import { describePathRewrite, describeWs, forwardNote } from './startup-notes.js'
import { checkHeaders, mergeHeaders } from './validate-headers.js'
import { checkBoolean, checkTimeout } from './validate-values.js'

/** The options of what is sent upstream: where, under which path, with which headers, how long to wait. */
export const REQUEST_OPTIONS = {
  target: richOption({
    name: 'target',
    level: 'route',
    doc: [
      'Where requests go: an `http:`, `https:`, `ws:` or `wss:` URL; a path in it is prepended',
      "(`http://h/v1` + `/users` → `/v1/users`). Also http-proxy's target object,",
      "`{ protocol: 'http:', host: 'localhost', port: 3000 }`, or `{ socketPath: '/tmp/api.sock' }` for a",
      'Unix socket (sent with `Host: localhost`). `0.0.0.0` and `[::]`, what servers print when they',
      'listen everywhere, are reached on loopback. A route with only a `router` or a `bypass` has no',
      'target: a request neither sends elsewhere is answered 502 naming `target`.',
    ],
    defaultText: 'none: required unless `mock`, `router` or `bypass` is set',
    example: "'http://localhost:3000'",
    fixValue: "'http://localhost:3000'",
    resolvedBy: 'validate-target.ts, resolve-control.ts (`targets`)',
  }),
  /** Send the target's host as `Host` instead of the dev server's. */
  changeOrigin: option<boolean>({
    name: 'changeOrigin',
    level: 'both',
    doc: ["Send the target's host as `Host` instead of the dev server's."],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'changeOrigin'),
    default: true,
    startup: (route, value) => forwardNote(route, 'changeOrigin', value, true),
  }),
  /**
   * Add `X-Forwarded-For` (appended to the client's), `X-Forwarded-Proto`, `-Host`, `-Port` and `X-Real-IP`
   * to upstream requests.
   */
  xfwd: option<boolean>({
    name: 'xfwd',
    level: 'both',
    doc: [
      "Add `X-Forwarded-For` (appended to the client's), `X-Forwarded-Proto`, `-Host`, `-Port` and",
      '`X-Real-IP` to upstream requests.',
    ],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'xfwd'),
    default: true,
    startup: (route, value) => forwardNote(route, 'xfwd', value, true),
  }),
  pathRewrite: richOption({
    name: 'pathRewrite',
    level: 'route',
    doc: [
      "How the path is rewritten before forwarding. By default the route's prefix is removed",
      '(`/api/users?x=1` → `/users?x=1`), as a production reverse proxy does; `false` keeps the path',
      "as it came (Vite's `server.proxy` and http-proxy-middleware keep it by default). An object maps",
      'regular expressions to replacements, applied in order. A function `(path, req, res, options)`',
      "(http-proxy-middleware 4's arguments) gets the path with the prefix and its query, and returns",
      'the path to send; `res` is `undefined` for a WebSocket upgrade, and `options` is the route as',
      "written (on a route with a `router`, the request's copy the router got). It may be async and",
      'is awaited; one that throws or rejects answers 502 naming it, and nothing is sent; one that',
      'returns no string keeps the path, and the log says so. When the target answers 404 and would',
      'have answered the path with the prefix, the log suggests `pathRewrite: false`.',
    ],
    defaultText: 'remove the prefix',
    example: "{ '^/api/old': '/new' }",
    fixValue: 'false',
    resolvedBy: 'resolve-path-rewrite.ts',
    startup: describePathRewrite,
  }),
  /** Fixed headers added to every upstream request. */
  headers: option<Record<string, string>, readonly HeaderEntry[]>({
    name: 'headers',
    level: 'both',
    doc: ['Fixed headers added to every upstream request.'],
    defaultText: '{}',
    example: "{ 'x-api-key': 'dev-key' }",
    fixValue: "{ 'x-api-key': 'dev' }",
    check: checkHeaders,
    default: Object.freeze([]),
    combine: mergeHeaders,
    startup: (route, value) =>
      route.kind === 'forward' && value !== undefined && value.length > 0
        ? `headers: ${value.map(([name]) => name).join(', ')}`
        : undefined,
  }),
  auth: richOption({
    name: 'auth',
    level: 'route',
    doc: [
      "http-proxy's `auth`: `'user:password'`, sent upstream as Basic `Authorization` when the",
      "request carries no `Authorization` of its own (as Node's `http.request({ auth })` does).",
    ],
    defaultText: 'none',
    example: "'admin:secret'",
    fixValue: "'user:password'",
    resolvedBy: 'validate-values.ts (checkAuth)',
    startup: (route) => (route.kind === 'forward' && route.authorization !== undefined ? 'auth' : undefined),
  }),
  /** Forward WebSocket upgrades on this prefix (implied by a `ws:` or `wss:` target). */
  ws: option<boolean>({
    name: 'ws',
    level: 'route',
    doc: [
      'Forward WebSocket upgrades on this prefix (implied by a `ws:` or `wss:` target). On a `mock`',
      "route, opens the mock's WebSocket echo at `<prefix>/ws` (with the default `pathRewrite`).",
      "The dev server's own sockets (Vite's and webpack-dev-server's HMR) are never forwarded.",
    ],
    defaultText: 'false',
    example: 'true',
    check: (value, option) => checkBoolean(value, option, 'ws'),
    default: false,
    startup: describeWs,
  }),
  /** Verify the target's TLS certificate. */
  secure: option<boolean>({
    name: 'secure',
    level: 'both',
    doc: ["Verify the target's TLS certificate. `false` accepts a self-signed target."],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'secure'),
    default: true,
    startup: (route, value) => forwardNote(route, 'secure', value, true),
  }),
  /** Offer HTTP/2 to an `https:` target (negotiated by ALPN; HTTP/1.1 when it declines). */
  http2: option<boolean>({
    name: 'http2',
    level: 'route',
    doc: [
      'Offer HTTP/2 to an `https:` target (negotiated by ALPN; HTTP/1.1 when it declines). The',
      'browser-facing side is unchanged, and an `http:` target always gets HTTP/1.1: no browser or',
      "proxy negotiates HTTP/2 without TLS. The debug line then shows the upstream hop's protocol",
      '(`… over h2`). Off by default because it is slower for many small requests (see the',
      '[benchmark](/benchmark)); turn it on for a target that only speaks HTTP/2.',
    ],
    defaultText: 'false',
    example: 'true',
    check: (value, option) => checkBoolean(value, option, 'http2'),
    /** HTTP/1.1 to the target unless a route opts in (measured in `pnpm bench`). */
    default: false,
  }),
  /**
   * Milliseconds the target has to send its response headers once the request was sent (connecting
   * included; for an upload, from the end of its body) before the proxy answers 504 (or, with `replay:
   * 'fallback'`, from the recordings).
   */
  timeout: option<number, number | undefined>({
    name: 'timeout',
    level: 'both',
    doc: [
      'Milliseconds the target has to send its response headers once the request was sent',
      '(connecting included; for an upload, from the end of its body) before the proxy answers 504',
      "(or, with `replay: 'fallback'`, from the recordings). Without it an answer may take as long as",
      "the target needs, as through Vite's, Angular's, webpack-dev-server's and",
      "http-proxy-middleware's proxies: a slow export, a long completion, a backend paused at a",
      'breakpoint.',
    ],
    defaultText: 'undefined (no deadline)',
    example: '5000',
    fixValue: '30000',
    check: checkTimeout,
    default: undefined,
    startup: (route, value) =>
      route.kind === 'forward' && value !== undefined ? `timeout: ${value}` : undefined,
  }),
}
