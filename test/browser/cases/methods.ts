import {
  type BrowserCorsCase,
  bothInitiators,
  JSON_TYPE,
  NO_ALLOW_ORIGIN,
  type Scenario,
} from './case-types.js'

/**
 * Methods: the safelisted three, normalization (only DELETE, GET, HEAD, OPTIONS, POST and PUT are
 * uppercased), case in Access-Control-Allow-Methods, custom methods, and the forbidden ones the
 * script cannot even ask for. Chromium 156 compares the method with Access-Control-Allow-Methods
 * case-sensitively and as sent: `patch` passes `patch` and fails `PATCH`, `PATCH` fails `patch`.
 */

function allowed(method: string, preflight: boolean, switches = 'cors=reflect'): Scenario {
  return {
    name: `${method} is ${preflight ? 'preflighted' : 'simple'} and readable with ${switches}`,
    path: '/items/1',
    switches,
    method,
    preflight,
    expected: { readable: true },
  }
}

function refusedByPreflight(method: string, switches: string, quoted = method): Scenario {
  return {
    name: `${method} is refused by the preflight with ${switches}`,
    path: '/items/1',
    switches,
    method,
    preflight: true,
    expected: {
      readable: false,
      text: `Method ${quoted} is not allowed by Access-Control-Allow-Methods in preflight response.`,
      stage: 'preflight',
    },
  }
}

/** The preflight passes, then Node's parser refuses the method itself: a 400 without CORS headers. */
function refusedByParser(method: string, switches: string): Scenario {
  return {
    name: `${method} passes the preflight with ${switches}, then the backend's parser answers 400 without CORS headers`,
    path: '/items/1',
    switches,
    method,
    preflight: true,
    refusedByParser: true,
    expected: { readable: false, text: NO_ALLOW_ORIGIN, stage: 'response' },
  }
}

const UNSUPPORTED = (method: string) =>
  `TypeError: Failed to execute 'fetch' on 'Window': '${method}' HTTP method is unsupported.`
const FORBIDDEN_REASON =
  'a forbidden method: the browser sends nothing, and check refuses it as a usage error'

function forbidden(method: string): Scenario {
  return {
    name: `${method} throws before anything is sent`,
    path: '/users',
    switches: 'cors=reflect',
    method,
    preflight: false,
    expected: { readable: false, threw: UNSUPPORTED(method) },
    notSentByCheck: FORBIDDEN_REASON,
  }
}

const SCENARIOS: Scenario[] = [
  allowed('GET', false),
  allowed('HEAD', false),
  allowed('POST', false),
  allowed('get', false),
  allowed('post', false),
  allowed('head', false),
  allowed('PUT', true),
  allowed('put', true),
  allowed('DELETE', true),
  allowed('delete', true),
  allowed('PATCH', true),
  allowed('OPTIONS', true, 'cors=reflect&allowMethods=OPTIONS'),
  allowed('options', true, 'cors=reflect&allowMethods=OPTIONS'),
  refusedByPreflight('OPTIONS', 'cors=reflect'),
  refusedByPreflight('PUT', 'cors=reflect&allowMethods=GET,POST'),
  refusedByPreflight('DELETE', 'cors=reflect&allowMethods=delete'),
  refusedByPreflight('PATCH', 'cors=reflect&allowMethods=patch'),
  refusedByParser('patch', 'cors=reflect&allowMethods=patch'),
  refusedByPreflight('PATCH', 'cors=reflect&allowMethods='),
  allowed('GET', false, 'cors=reflect&allowMethods='),
  {
    name: 'a preflighted POST passes whatever Access-Control-Allow-Methods says: POST is safelisted',
    path: '/items',
    switches: 'cors=reflect&allowMethods=PUT',
    method: 'POST',
    headers: JSON_TYPE,
    preflight: true,
    expected: { readable: true },
  },
  refusedByPreflight('patch', 'cors=reflect'),
  refusedByPreflight('patch', 'cors=reflect&allowMethods=PATCH'),
  allowed('PROPFIND', true, 'cors=reflect&allowMethods=PROPFIND'),
  refusedByPreflight('PROPFIND', 'cors=reflect'),
  refusedByPreflight('propfind', 'cors=reflect&allowMethods=PROPFIND'),
  refusedByParser('propfind', 'cors=reflect&allowMethods=propfind'),
  refusedByPreflight('X-CUSTOM', 'cors=reflect'),
  refusedByParser('X-CUSTOM', 'cors=reflect&allowMethods=X-CUSTOM'),
  allowed('PUT', true, 'cors=reflect&allowMethods=*'),
  forbidden('CONNECT'),
  forbidden('connect'),
  forbidden('TRACE'),
  forbidden('trace'),
  forbidden('TRACK'),
  forbidden('Track'),
]

/** Every method case, fetch and XMLHttpRequest. */
export const METHOD_CASES: readonly BrowserCorsCase[] = bothInitiators('methods', SCENARIOS)
