import {
  type BrowserCorsCase,
  bothInitiators,
  JSON_TYPE,
  NO_ALLOW_ORIGIN,
  onPreflight,
  type Scenario,
} from './case-types.js'

/**
 * Preflight answers: statuses (ok, not ok, redirects with and without Location), unparsable
 * Access-Control-Allow-Methods and Access-Control-Allow-Headers, and `*` in both with and
 * without credentials, Authorization under `*` included. A PUT with a JSON body type unless said.
 */

const INVALID_STATUS = onPreflight('It does not have HTTP ok status.')
const REDIRECT = onPreflight('Redirect is not allowed for a preflight request.')
const CANNOT_PARSE_METHODS =
  'Cannot parse Access-Control-Allow-Methods response header field in preflight response.'
const CANNOT_PARSE_HEADERS =
  'Cannot parse Access-Control-Allow-Headers response header field in preflight response.'
const headerRefused = (name: string) =>
  `Request header field ${name} is not allowed by Access-Control-Allow-Headers in preflight response.`
const methodRefused = (name: string) =>
  `Method ${name} is not allowed by Access-Control-Allow-Methods in preflight response.`

function put(
  name: string,
  switches: string,
  expected: string | undefined,
  extra: Partial<Scenario> = {},
): Scenario {
  return {
    name,
    path: '/items/1',
    switches,
    method: 'PUT',
    headers: JSON_TYPE,
    preflight: true,
    expected:
      expected === undefined ? { readable: true } : { readable: false, text: expected, stage: 'preflight' },
    ...extra,
  }
}

const LOCATION = 'header=Location:/elsewhere'

const STATUSES: Scenario[] = [
  put('a preflight answered 200 passes', 'cors=reflect&preflightStatus=200', undefined),
  put('a preflight answered 204 passes', 'cors=reflect&preflightStatus=204', undefined),
  put('a preflight answered 299 passes: any 2xx is ok', 'cors=reflect&preflightStatus=299', undefined),
  put('a preflight answered 300 is not ok', 'cors=reflect&preflightStatus=300', INVALID_STATUS),
  put(
    'a preflight answered 300 with a Location is not ok, and no redirect',
    `cors=reflect&preflightStatus=300&${LOCATION}`,
    INVALID_STATUS,
  ),
  put(
    'a preflight answered 301 without Location is not ok',
    'cors=reflect&preflightStatus=301',
    INVALID_STATUS,
  ),
  put(
    'a preflight answered 301 with a Location is a refused redirect',
    `cors=reflect&preflightStatus=301&${LOCATION}`,
    REDIRECT,
  ),
  put(
    'a preflight answered 302 without Location is not ok',
    'cors=reflect&preflightStatus=302',
    INVALID_STATUS,
  ),
  put(
    'a preflight answered 302 with a Location is a refused redirect',
    `cors=reflect&preflightStatus=302&${LOCATION}`,
    REDIRECT,
  ),
  put(
    'a preflight answered 303 with a Location is a refused redirect',
    `cors=reflect&preflightStatus=303&${LOCATION}`,
    REDIRECT,
  ),
  put(
    'a preflight answered 307 without Location is not ok',
    'cors=reflect&preflightStatus=307',
    INVALID_STATUS,
  ),
  put(
    'a preflight answered 307 with a Location is a refused redirect',
    `cors=reflect&preflightStatus=307&${LOCATION}`,
    REDIRECT,
  ),
  put(
    'a preflight answered 308 with a Location is a refused redirect',
    `cors=reflect&preflightStatus=308&${LOCATION}`,
    REDIRECT,
  ),
  put(
    'a redirecting preflight without CORS headers is refused as a redirect first',
    `cors=off&preflightStatus=302&${LOCATION}`,
    REDIRECT,
  ),
  put('a preflight answered 400 is not ok', 'cors=reflect&preflightStatus=400', INVALID_STATUS),
  put('a preflight answered 404 is not ok', 'cors=reflect&preflightStatus=404', INVALID_STATUS),
  put('a preflight answered 500 is not ok', 'cors=reflect&preflight=fail', INVALID_STATUS),
  put('a preflight answered 503 is not ok', 'cors=wildcard&preflightStatus=503', INVALID_STATUS),
  put(
    'a preflight answered 404 without CORS headers fails the origin check first',
    'cors=off&preflightStatus=404',
    onPreflight(NO_ALLOW_ORIGIN),
  ),
  put(
    'a preflight answered 204 without CORS headers fails the origin check',
    'cors=off',
    onPreflight(NO_ALLOW_ORIGIN),
  ),
]

const methods = (value: string) => `cors=reflect&header=Access-Control-Allow-Methods:${value}`
const headers = (value: string) => `cors=reflect&header=Access-Control-Allow-Headers:${value}`

const SYNTAX: Scenario[] = [
  put('Allow-Methods PUT x does not parse', methods('PUT%20x'), CANNOT_PARSE_METHODS),
  put('Allow-Methods PUT; does not parse', methods('PUT;'), CANNOT_PARSE_METHODS),
  put('Allow-Methods (PUT) does not parse', methods('(PUT)'), CANNOT_PARSE_METHODS),
  put('Allow-Methods PUT,,POST parses (empty items are skipped)', methods('PUT,,POST'), undefined),
  put('Allow-Methods with spaces around PUT parses', methods('%20GET%20,%20PUT%20'), undefined),
  put(
    'Allow-Methods put does not allow PUT: compared case-sensitively',
    methods('put'),
    methodRefused('PUT'),
  ),
  put('an empty Allow-Methods does not allow PUT', methods(''), methodRefused('PUT')),
  put(
    'Allow-Headers content-type x-foo does not parse',
    headers('content-type%20x-foo'),
    CANNOT_PARSE_HEADERS,
  ),
  put('Allow-Headers content-type; does not parse', headers('content-type;'), CANNOT_PARSE_HEADERS),
  put(
    'Allow-Headers CONTENT-TYPE allows content-type: names are case-insensitive',
    headers('CONTENT-TYPE'),
    undefined,
  ),
  put('an empty Allow-Headers does not allow content-type', headers(''), headerRefused('content-type')),
  put(
    'an unparsable Allow-Methods is reported before an unparsable Allow-Headers',
    `${methods('a%20b')}&header=Access-Control-Allow-Headers:c%20d`,
    CANNOT_PARSE_METHODS,
  ),
  put(
    'a refused method is reported before a refused header',
    'cors=reflect&allowMethods=GET&allowHeaders=x-foo',
    methodRefused('PUT'),
  ),
]

const WILDCARDS: Scenario[] = [
  put('Allow-Methods * allows PUT without credentials', 'cors=reflect&allowMethods=*', undefined),
  put(
    'Allow-Methods * does not allow PUT with credentials',
    'cors=reflect&allowMethods=*',
    methodRefused('PUT'),
    {
      credentials: 'include',
    },
  ),
  put('Allow-Methods *, PUT allows PUT with credentials', 'cors=reflect&allowMethods=*,PUT', undefined, {
    credentials: 'include',
  }),
  put('Allow-Headers * allows X-Foo without credentials', 'cors=reflect&allowHeaders=*', undefined, {
    headers: { ...JSON_TYPE, 'X-Foo': '1' },
  }),
  put('Allow-Headers * does not allow X-Foo with credentials', 'cors=reflect&allowHeaders=*', undefined, {
    headers: { 'X-Foo': '1' },
    credentials: 'include',
    expected: { readable: false, text: headerRefused('x-foo'), stage: 'preflight' },
  }),
  put(
    'Allow-Headers *, x-foo allows X-Foo with credentials',
    'cors=reflect&allowHeaders=*,x-foo',
    undefined,
    {
      headers: { 'X-Foo': '1' },
      credentials: 'include',
    },
  ),
  put(
    'Allow-Headers * lets Authorization through without credentials (Chromium 156)',
    'cors=reflect&allowHeaders=*',
    undefined,
    {
      headers: { Authorization: 'Bearer x' },
    },
  ),
  put(
    'Allow-Headers * does not allow Authorization with credentials',
    'cors=reflect&allowHeaders=*',
    undefined,
    {
      headers: { Authorization: 'Bearer x' },
      credentials: 'include',
      expected: { readable: false, text: headerRefused('authorization'), stage: 'preflight' },
    },
  ),
  put(
    'Allow-Headers authorization allows Authorization with credentials',
    'cors=reflect&allowHeaders=authorization',
    undefined,
    {
      headers: { Authorization: 'Bearer x' },
      credentials: 'include',
    },
  ),
  {
    name: 'a GET with Authorization and Allow-Headers * is readable without credentials',
    path: '/users',
    switches: 'cors=wildcard&allowHeaders=*',
    method: 'GET',
    headers: { Authorization: 'Bearer x' },
    preflight: true,
    expected: { readable: true },
  },
]

/** Every preflight-answer case, fetch and XMLHttpRequest. */
export const PREFLIGHT_ANSWER_CASES: readonly BrowserCorsCase[] = bothInitiators('preflight-answers', [
  ...STATUSES,
  ...SYNTAX,
  ...WILDCARDS,
])
