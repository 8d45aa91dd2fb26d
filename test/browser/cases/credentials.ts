import {
  type BrowserCorsCase,
  bothInitiators,
  JSON_TYPE,
  NO_ALLOW_ORIGIN,
  onPreflight,
  type Scenario,
} from './case-types.js'

/**
 * Credentials modes (fetch `omit`, `same-origin`, `include`; XMLHttpRequest without and with
 * withCredentials) against `*` and a reflected origin, and Access-Control-Allow-Credentials
 * spellings with credentials included.
 */

const OMIT_REASON = 'XMLHttpRequest has no omit mode: without withCredentials it is same-origin'
const WILDCARD =
  "The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'."
const badCredentials = (value: string) =>
  `The value of the 'Access-Control-Allow-Credentials' header in the response is '${value}' which must be 'true' when the request's credentials mode is 'include'.`

function call(
  name: string,
  switches: string,
  credentials: Scenario['credentials'],
  expected: Scenario['expected'],
): Scenario {
  return {
    name,
    path: '/me',
    switches,
    method: 'GET',
    credentials,
    preflight: false,
    expected,
    ...(credentials === 'omit' ? { fetchOnly: OMIT_REASON } : {}),
  }
}

const READ = { readable: true } as const
const blocked = (text: string) => ({ readable: false, text, stage: 'response' }) as const

/** A preflighted PUT with credentials included. */
function put(name: string, switches: string, expected: Scenario['expected']): Scenario {
  return {
    name,
    path: '/items/1',
    switches,
    method: 'PUT',
    headers: JSON_TYPE,
    credentials: 'include',
    preflight: true,
    expected,
  }
}

const SCENARIOS: Scenario[] = [
  call("credentials 'omit' with * is readable", 'cors=wildcard', 'omit', READ),
  call("credentials 'same-origin' with * is readable", 'cors=wildcard', 'same-origin', READ),
  call("credentials 'include' with * is refused", 'cors=wildcard', 'include', blocked(WILDCARD)),
  call(
    "credentials 'include' with * and Allow-Credentials: true is still refused",
    'cors=wildcard&credentials=true',
    'include',
    blocked(WILDCARD),
  ),
  call(
    "credentials 'omit' with the origin and no Allow-Credentials is readable",
    'cors=reflect&credentials=false',
    'omit',
    READ,
  ),
  call(
    "credentials 'include' with the origin and Allow-Credentials: true is readable",
    'cors=reflect',
    'include',
    READ,
  ),
  call(
    "credentials 'include' without Allow-Credentials is refused",
    'cors=reflect&credentials=false',
    'include',
    blocked(badCredentials('')),
  ),
  call(
    "credentials 'include' with Allow-Credentials: True is refused",
    'cors=reflect&allowCredentials=True',
    'include',
    blocked(badCredentials('True')),
  ),
  call(
    "credentials 'include' with Allow-Credentials: TRUE is refused",
    'cors=reflect&allowCredentials=TRUE',
    'include',
    blocked(badCredentials('TRUE')),
  ),
  call(
    "credentials 'include' with Allow-Credentials: ' true ' is readable: the value is trimmed",
    'cors=reflect&allowCredentials=%20true%20',
    'include',
    READ,
  ),
  call(
    "credentials 'include' with Allow-Credentials: 1 is refused",
    'cors=reflect&allowCredentials=1',
    'include',
    blocked(badCredentials('1')),
  ),
  call(
    "credentials 'include' with Allow-Credentials: yes is refused",
    'cors=reflect&allowCredentials=yes',
    'include',
    blocked(badCredentials('yes')),
  ),
  call(
    "credentials 'include' with an empty Allow-Credentials is refused",
    'cors=reflect&allowCredentials=',
    'include',
    blocked(badCredentials('')),
  ),
  call(
    "credentials 'include' with Allow-Credentials: true in two lines is refused",
    'cors=reflect&header=Access-Control-Allow-Credentials:true&header=Access-Control-Allow-Credentials:true',
    'include',
    blocked(badCredentials('true, true')),
  ),
  call(
    "credentials 'same-origin' ignores Allow-Credentials: True",
    'cors=reflect&allowCredentials=True',
    'same-origin',
    READ,
  ),
  call(
    "credentials 'include' with no Allow-Origin at all is refused for that first",
    'cors=off&header=Access-Control-Allow-Credentials:True',
    'include',
    blocked(NO_ALLOW_ORIGIN),
  ),
  put("a preflighted PUT with credentials 'include' and the origin is readable", 'cors=reflect', READ),
  put("a preflight answering * to credentials 'include' is refused", 'cors=wildcard&credentials=true', {
    readable: false,
    text: onPreflight(WILDCARD),
    stage: 'preflight',
  }),
  put(
    "a preflight answering Allow-Credentials: True to credentials 'include' is refused",
    'cors=reflect&allowCredentials=True',
    {
      readable: false,
      text: onPreflight(badCredentials('True')),
      stage: 'preflight',
    },
  ),
]

/** Every credentials case, fetch and (but `omit`) XMLHttpRequest. */
export const CREDENTIALS_CASES: readonly BrowserCorsCase[] = bothInitiators('credentials', SCENARIOS)
