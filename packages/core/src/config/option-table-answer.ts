import { MOCK_BACKEND_OPTION } from '../stand-ins/mock-backend/options/mock-backend-option-table.js'
import { option, richOption } from './option-entry.js'
import type { CookieRewrite } from './option-value-types.js'
import { describeJsonp, forwardNote } from './startup-notes.js'
import { checkBoolean, checkCookieRewrite } from './validate-values.js'

/** The options of what comes back: cookies, CORS, the mock backend, JSONP, the rewritten locations and origins. */
export const ANSWER_OPTIONS = {
  /**
   * Rewrite the `Domain` attribute of Set-Cookie: `false` keeps it, a string replaces it (`''` removes it),
   * an object maps old domains to new ones (`'*'` for any).
   */
  cookieDomainRewrite: option<CookieRewrite>({
    name: 'cookieDomainRewrite',
    level: 'route',
    doc: [
      "Rewrite the `Domain` attribute of Set-Cookie: `false` keeps it, a string replaces it (`''`",
      "removes it), an object maps old domains to new ones (`'*'` for any). By default it is removed,",
      "so the browser stores the cookie for the dev server's host.",
    ],
    defaultText: "'' (remove Domain)",
    example: "{ 'api.example.test': '', '*': 'localhost' }",
    fixValue: "{ 'api.example.com': 'localhost' }",
    check: (value, option) => checkCookieRewrite(value, option, 'domain'),
    default: '',
    startup: (route, value) => forwardNote(route, 'cookieDomainRewrite', value, ''),
  }),
  /** Rewrite the `Path` attribute of Set-Cookie, with the same forms as `cookieDomainRewrite`. */
  cookiePathRewrite: option<CookieRewrite>({
    name: 'cookiePathRewrite',
    level: 'route',
    doc: ['Rewrite the `Path` attribute of Set-Cookie, with the same forms as `cookieDomainRewrite`.'],
    defaultText: 'false',
    example: "{ '/': '/api/' }",
    fixValue: "{ '/api': '/' }",
    check: (value, option) => checkCookieRewrite(value, option, 'path'),
    default: false,
    startup: (route, value) => forwardNote(route, 'cookiePathRewrite', value, false),
  }),
  cors: richOption({
    name: 'cors',
    level: 'both',
    doc: [
      'Answer preflights here (204) and add CORS headers to every response of the route (proxied',
      "answers and the proxy's own 502/504), instead of forwarding `OPTIONS` to the target. `true`",
      'uses the safe defaults (localhost and loopback origins); an object is a [CORS',
      'policy](#cors-options). Without it, preflights go to the target untouched and the log explains,',
      "in Chromium's words, any answer the browser would block.",
    ],
    defaultText: 'false (preflights are forwarded untouched)',
    example: "{ origin: 'http://localhost:5173', credentials: true }",
    resolvedBy: 'resolve-cors-options.ts',
    startup: (route) => (route.cors ? 'cors' : undefined),
  }),
  mock: MOCK_BACKEND_OPTION,
  jsonp: richOption({
    name: 'jsonp',
    level: 'both',
    doc: [
      'Wrap the JSON answers of GET requests that carry a callback parameter as JSONP',
      "(`typeof cb === 'function' && cb(<json>);`, served as `application/javascript`). `true` uses the",
      "`callback` parameter; `{ param: 'cb' }` another. A callback name that is not a plain",
      'identifier path is answered 400 and never reflected.',
    ],
    defaultText: 'false',
    example: "{ param: 'cb' }",
    resolvedBy: 'validate-values.ts (checkJsonp)',
    startup: describeJsonp,
  }),
  /**
   * Rewrite a redirect's `Location` (and `Content-Location`) that points at the target, absolute or
   * path-absolute, to the dev server's origin with the route's prefix put back, so the browser stays on the
   * dev server: `http://localhost:3000/posts` → `http://localhost:5173/api/posts`.
   */
  rewriteLocation: option<boolean>({
    name: 'rewriteLocation',
    level: 'both',
    doc: [
      "Rewrite a redirect's `Location` (and `Content-Location`) that points at the target, absolute",
      "or path-absolute, to the dev server's origin with the route's prefix put back, so the",
      'browser stays on the dev server: `http://localhost:3000/posts` → `http://localhost:5173/api/posts`.',
      'Other origins and relative values are left alone. With a `pathRewrite` object or function it',
      'cannot be undone: the header passes unchanged and the log says so once per route.',
    ],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'rewriteLocation'),
    default: true,
  }),
  /**
   * With `changeOrigin`, send a same-origin call's `Origin` (the dev server's own) as the target's origin,
   * so backends that compare `Origin` with `Host` (CSRF checks, WebSocket servers) accept it.
   */
  rewriteOrigin: option<boolean>({
    name: 'rewriteOrigin',
    level: 'both',
    doc: [
      "With `changeOrigin`, send a same-origin call's `Origin` (the dev server's own) as the",
      "target's origin, so backends that compare `Origin` with `Host` (CSRF checks, WebSocket",
      'servers) accept it. Any other `Origin` is forwarded unchanged, and a 403 to such a request',
      'gets a hint in the log. WebSocket upgrades follow the same rule.',
    ],
    defaultText: 'true',
    example: 'false',
    check: (value, option) => checkBoolean(value, option, 'rewriteOrigin'),
    default: true,
  }),
  /**
   * Vite's option: every WebSocket upgrade's `Origin` becomes the target's, whatever page opened it.
   */
  rewriteWsOrigin: option<boolean>({
    name: 'rewriteWsOrigin',
    level: 'route',
    doc: [
      "Vite's option: every WebSocket upgrade's `Origin` becomes the target's, whatever page",
      'opened it.',
    ],
    defaultText: 'false',
    example: 'true',
    check: (value, option) => checkBoolean(value, option, 'rewriteWsOrigin'),
    default: false,
  }),
}
