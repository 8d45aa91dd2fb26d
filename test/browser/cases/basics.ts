import {
  type BrowserCorsCase,
  bothInitiators,
  JSON_TYPE,
  NO_ALLOW_ORIGIN,
  onPreflight,
  type Scenario,
} from './case-types.js'

/** The everyday calls: a readable GET and PUT, a backend without CORS, a refused method and header. */
const SCENARIOS: Scenario[] = [
  {
    name: 'GET with cors=reflect is readable',
    path: '/users',
    switches: 'cors=reflect',
    method: 'GET',
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'GET with cors=off is blocked, yet the backend received and answered it',
    path: '/users',
    switches: 'cors=off',
    method: 'GET',
    preflight: false,
    expected: { readable: false, text: NO_ALLOW_ORIGIN, stage: 'response' },
  },
  {
    name: 'PUT with Content-Type: application/json and a body is preflighted and allowed with cors=reflect',
    path: '/items/1',
    switches: 'cors=reflect',
    method: 'PUT',
    headers: JSON_TYPE,
    body: '{"name":"ada"}',
    preflight: true,
    expected: { readable: true },
  },
  {
    name: 'a POST with a string body (text/plain) is simple and the body arrives',
    path: '/items',
    switches: 'cors=wildcard',
    method: 'POST',
    body: 'hello',
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'PUT with X-Foo is blocked when the preflight allows only content-type',
    path: '/items/1',
    switches: 'cors=reflect&allowHeaders=content-type',
    method: 'PUT',
    headers: { ...JSON_TYPE, 'X-Foo': 'bar' },
    body: '{}',
    preflight: true,
    expected: {
      readable: false,
      text: 'Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.',
      stage: 'preflight',
    },
  },
  {
    name: 'PUT is blocked when the preflight answer has no CORS headers',
    path: '/items/1',
    switches: 'cors=off',
    method: 'PUT',
    headers: JSON_TYPE,
    body: '{}',
    preflight: true,
    expected: { readable: false, text: onPreflight(NO_ALLOW_ORIGIN), stage: 'preflight' },
  },
  {
    name: 'a client hint is safelisted against a server without CORS: blocked on the response',
    path: '/users',
    switches: 'cors=off',
    method: 'GET',
    headers: { DPR: '2', 'Save-Data': 'on' },
    preflight: false,
    expected: { readable: false, text: NO_ALLOW_ORIGIN, stage: 'response' },
  },
  {
    name: 'Save-Data: off is preflighted, and blocked by a server without CORS',
    path: '/users',
    switches: 'cors=off',
    method: 'GET',
    headers: { 'Save-Data': 'off' },
    preflight: true,
    expected: { readable: false, text: onPreflight(NO_ALLOW_ORIGIN), stage: 'preflight' },
  },
  {
    name: 'Content-Type: text/plain set twice is judged as text/plain, text/plain and preflighted',
    path: '/items',
    switches: 'cors=reflect',
    method: 'POST',
    headers: [
      ['Content-Type', 'text/plain'],
      ['Content-Type', 'text/plain'],
    ],
    preflight: true,
    expected: { readable: true },
  },
  {
    name: 'two Accept values of 70 bytes pass 128 bytes combined: preflighted, and blocked without CORS',
    path: '/users',
    switches: 'cors=off',
    method: 'GET',
    headers: [
      ['Accept', 'a'.repeat(70)],
      ['Accept', 'b'.repeat(70)],
    ],
    preflight: true,
    expected: { readable: false, text: onPreflight(NO_ALLOW_ORIGIN), stage: 'preflight' },
  },
  {
    name: 'two short Accept values stay simple, and the backend receives them combined',
    path: '/users',
    switches: 'cors=reflect',
    method: 'GET',
    headers: [
      ['Accept', 'text/html'],
      ['Accept', 'application/xml'],
    ],
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'several refused headers: Chromium names one of them (hash order), the model one of them too',
    path: '/items/1',
    switches: 'cors=reflect&allowHeaders=content-type',
    method: 'PUT',
    headers: { 'X-B': '1', 'X-A': '1', 'X-C': '1' },
    preflight: true,
    expected: {
      readable: false,
      text: ['x-a', 'x-b', 'x-c'].map(
        (name) =>
          `Request header field ${name} is not allowed by Access-Control-Allow-Headers in preflight response.`,
      ),
      stage: 'preflight',
    },
  },
]

/** The everyday cases, fetch and XMLHttpRequest. */
export const BASIC_CASES: readonly BrowserCorsCase[] = bothInitiators('basics', SCENARIOS)
