import { type BrowserCorsCase, bothInitiators, ECHO_READABLE, type Scenario } from './case-types.js'

/**
 * Which response headers the script can read (fetch `[...res.headers.keys()]`, XMLHttpRequest
 * `getAllResponseHeaders()`): the CORS-safelisted response-header names, plus the names in
 * Access-Control-Expose-Headers, `*` meaning every header only without credentials, and never
 * Set-Cookie. The echo answers with extra headers from `header=` switches.
 */

/** The extra headers: the five safelisted names the echo lacks, a custom one, and a cookie. */
const EXTRA = [
  'Cache-Control:no-store',
  'Content-Language:en',
  'Expires:0',
  'Last-Modified:Mon,%2001%20Jan%202024%2000:00:00%20GMT',
  'Pragma:no-cache',
  'X-Custom:1',
  'Set-Cookie:a=1',
]
  .map((line) => `header=${line}`)
  .join('&')

const SAFELISTED = [
  ...ECHO_READABLE,
  'cache-control',
  'content-language',
  'expires',
  'last-modified',
  'pragma',
].sort()
/** What Node and the mock send besides: every name `*` can expose on the echo. */
const NODE_HEADERS = ['connection', 'date', 'keep-alive']
const sorted = (...names: string[]) => [...new Set(names)].sort()

function read(
  name: string,
  switches: string,
  readHeaders: readonly string[],
  credentials: Scenario['credentials'] = 'same-origin',
): Scenario {
  return {
    name,
    path: '/users',
    switches: `${switches}&${EXTRA}`,
    method: 'GET',
    credentials,
    preflight: false,
    expected: { readable: true, readHeaders },
    ...(credentials === 'omit' ? { fetchOnly: 'XMLHttpRequest has no omit mode' } : {}),
  }
}

const expose = (value: string) => `header=Access-Control-Expose-Headers:${value}`

const SCENARIOS: Scenario[] = [
  {
    name: 'the echo alone shows its Content-Type and Content-Length, nothing else',
    path: '/users',
    switches: 'cors=reflect',
    method: 'GET',
    preflight: false,
    expected: { readable: true, readHeaders: ECHO_READABLE },
  },
  read('without Expose-Headers only the safelisted names are readable', 'cors=wildcard', SAFELISTED),
  read('Expose-Headers x-custom adds it', 'cors=wildcard&expose=x-custom', sorted(...SAFELISTED, 'x-custom')),
  read(
    'Expose-Headers X-CUSTOM adds it: names are case-insensitive',
    'cors=wildcard&expose=X-CUSTOM',
    sorted(...SAFELISTED, 'x-custom'),
  ),
  read('Expose-Headers naming an absent header adds nothing', 'cors=wildcard&expose=x-missing', SAFELISTED),
  read(
    'Expose-Headers set-cookie never exposes Set-Cookie',
    'cors=wildcard&expose=set-cookie,x-custom',
    sorted(...SAFELISTED, 'x-custom'),
  ),
  read(
    'Expose-Headers date, vary exposes them',
    'cors=reflect&expose=date,vary',
    sorted(...SAFELISTED, 'date', 'vary'),
  ),
  read(
    'Expose-Headers can expose Access-Control-Allow-Origin itself',
    'cors=wildcard&expose=access-control-allow-origin',
    sorted(...SAFELISTED, 'access-control-allow-origin'),
  ),
  read(
    'Expose-Headers * exposes every header but Set-Cookie without credentials',
    `cors=wildcard&${expose('*')}`,
    sorted(
      ...SAFELISTED,
      ...NODE_HEADERS,
      'x-custom',
      'access-control-allow-origin',
      'access-control-expose-headers',
    ),
  ),
  read(
    "Expose-Headers * exposes every header but Set-Cookie with credentials 'omit'",
    `cors=wildcard&${expose('*')}`,
    sorted(
      ...SAFELISTED,
      ...NODE_HEADERS,
      'x-custom',
      'access-control-allow-origin',
      'access-control-expose-headers',
    ),
    'omit',
  ),
  read(
    'Expose-Headers * is only a name with credentials included',
    `cors=reflect&${expose('*')}`,
    SAFELISTED,
    'include',
  ),
  read(
    'Expose-Headers *, x-custom with credentials included exposes x-custom only',
    `cors=reflect&${expose('*,%20x-custom')}`,
    sorted(...SAFELISTED, 'x-custom'),
    'include',
  ),
  read(
    'Expose-Headers in two lines exposes the names of both',
    `cors=wildcard&${expose('x-custom')}&${expose('date')}`,
    sorted(...SAFELISTED, 'x-custom', 'date'),
  ),
  read(
    'Expose-Headers x-custom date (no comma) exposes neither',
    `cors=wildcard&${expose('x-custom%20date')}`,
    SAFELISTED,
  ),
]

/** Every exposed-headers case, fetch and (but `omit`) XMLHttpRequest. */
export const EXPOSED_HEADER_CASES: readonly BrowserCorsCase[] = bothInitiators('exposed-headers', SCENARIOS)
