/**
 * The per-request switches of the mock backend, as `cors-dev-proxy mock` prints them: the same
 * table as the docs' Mock backend page (docs/guide/mock-backend.md) (a test keeps the two in step).
 */
export const MOCK_SWITCHES: ReadonlyArray<readonly [name: string, values: string, effect: string]> =
  Object.freeze([
    ['cors', 'off|wildcard|reflect', 'CORS mode of this request (overrides --cors)'],
    ['status', '200-599', 'status of the answer (not of the preflight)'],
    ['delay', '0-10000', 'milliseconds to wait before answering'],
    ['preflight', 'fail|ok', 'fail answers the preflight 500 ("It does not have HTTP ok status")'],
    ['preflightStatus', '200-599', 'status of the preflight answer (302 with header=Location:/x)'],
    ['allowMethods', 'GET,POST|*', 'Access-Control-Allow-Methods of the preflight answer'],
    ['allowHeaders', 'content-type|*', 'Access-Control-Allow-Headers of the preflight answer'],
    [
      'allowOrigin',
      'a header value',
      "Access-Control-Allow-Origin instead of the mode's: a wrong, invalid or multiple value",
    ],
    ['expose', 'x-a,x-b', 'Access-Control-Expose-Headers'],
    ['credentials', 'true|false', 'force Access-Control-Allow-Credentials on or off'],
    ['allowCredentials', 'True', 'Access-Control-Allow-Credentials exactly as written'],
    ['header', 'X-Custom:1', "an extra response header line (repeatable; replaces the mode's of that name)"],
    ['maxAge', '0-86400', 'Access-Control-Max-Age of the preflight answer'],
    ['redirect', '/next?x=1', 'answer 302 (or the 3xx status) with that Location, exactly as written'],
  ])

/** The paths the mock backend answers specially; every other path echoes the request. */
export const MOCK_PATHS: ReadonlyArray<readonly [path: string, effect: string]> = Object.freeze([
  ['/any/path', 'echoes method, path, query, headers, origin, cookies, body and protocol as JSON'],
  ['/any/path?callback=fn', 'the same echo as JSONP (GET only)'],
  ['/cookie?set=name=value', 'sets a cookie (&domain=... adds a Domain); /cookie reads them back'],
  ['/events?count=3&interval=100', 'a server-sent event stream that ends after count events'],
  ['/ws', 'a WebSocket echo'],
])
