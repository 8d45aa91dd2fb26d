import type { CorsInitiator } from '@cors-dev-proxy/core'

/** What the browser does with a case: the script reads the answer, or Chromium blocks it with this text. */
export type BrowserOutcome =
  | { readonly readable: true }
  | {
      readonly readable: false
      /**
       * Chromium's console text after `... has been blocked by CORS policy: `, word for word; a list
       * when Chromium's choice cannot be promised (which of several refused headers it names), and
       * then Chromium's text and the model's must each be one of them.
       */
      readonly text: string | readonly string[]
      /** Which answer failed: the preflight's (the request is then never sent) or the response's. */
      readonly stage: 'preflight' | 'response'
    }
  | {
      readonly readable: false
      /** The script's exception (`String(error)`), thrown before anything is sent; no console CORS text. */
      readonly threw: string
    }

/** One call of the browser matrix: a page's script calling the mock backend on another origin. */
export interface BrowserCorsCase {
  readonly name: string
  /** The path on the mock backend. */
  readonly path: string
  /** The mock's query switches that shape the answer (`cors=reflect&allowMethods=GET,POST`). */
  readonly switches: string
  readonly initiator: CorsInitiator
  /** As the script writes it. */
  readonly method: string
  /** A record, or `[name, value]` lines when a name is set more than once (`fetch` and `setRequestHeader` combine them). */
  readonly headers?: Readonly<Record<string, string>> | readonly (readonly [string, string])[]
  readonly body?: string
  /** `credentials: 'include'` (XMLHttpRequest: `withCredentials`). */
  readonly credentials?: boolean
  /** Whether the browser sends a preflight first. */
  readonly preflight: boolean
  readonly expected: BrowserOutcome
  /**
   * Why `cors-dev-proxy check` cannot send this case; test/browser/check-agrees-with-chromium.test.ts
   * skips the cases that have it (and only those), naming the reason in the test's title.
   */
  readonly notSentByCheck?: string
}

const JSON_TYPE = { 'Content-Type': 'application/json' } as const
const NO_ALLOW_ORIGIN = "No 'Access-Control-Allow-Origin' header is present on the requested resource."

/**
 * The cases headless Chromium runs in test/browser/cors-verdicts.test.ts, which checks that
 * Chromium behaves and prints exactly as `expected` says, and that `evaluateCors` predicts it;
 * test/browser/check-agrees-with-chromium.test.ts sends the same cases with `cors-dev-proxy check`
 * and requires the same verdict in the same words. One table, so the two cannot drift apart.
 */
export const BROWSER_CORS_CASES: readonly BrowserCorsCase[] = [
  {
    name: 'GET with cors=reflect is readable',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'GET',
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'GET with cors=wildcard is readable',
    path: '/users',
    switches: 'cors=wildcard',
    initiator: 'fetch',
    method: 'GET',
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'GET with cors=off is blocked, yet the backend received and answered it',
    path: '/users',
    switches: 'cors=off',
    initiator: 'fetch',
    method: 'GET',
    preflight: false,
    expected: { readable: false, text: NO_ALLOW_ORIGIN, stage: 'response' },
  },
  {
    name: 'XMLHttpRequest GET with cors=off is blocked in XMLHttpRequest words',
    path: '/users',
    switches: 'cors=off',
    initiator: 'XMLHttpRequest',
    method: 'GET',
    preflight: false,
    expected: { readable: false, text: NO_ALLOW_ORIGIN, stage: 'response' },
  },
  {
    name: 'PUT with Content-Type: application/json is preflighted and allowed with cors=reflect',
    path: '/items/1',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'PUT',
    headers: JSON_TYPE,
    body: '{"name":"ada"}',
    preflight: true,
    expected: { readable: true },
  },
  {
    name: 'PUT is blocked when the preflight allows only GET,POST, and is never sent',
    path: '/items/1',
    switches: 'cors=reflect&allowMethods=GET,POST',
    initiator: 'fetch',
    method: 'PUT',
    headers: JSON_TYPE,
    body: '{}',
    preflight: true,
    expected: {
      readable: false,
      text: 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.',
      stage: 'preflight',
    },
  },
  {
    name: 'PUT with X-Foo is blocked when the preflight allows only content-type',
    path: '/items/1',
    switches: 'cors=reflect&allowHeaders=content-type',
    initiator: 'fetch',
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
    name: 'PUT is blocked when the preflight is answered 500',
    path: '/items/1',
    switches: 'cors=reflect&preflight=fail',
    initiator: 'fetch',
    method: 'PUT',
    headers: JSON_TYPE,
    body: '{}',
    preflight: true,
    expected: {
      readable: false,
      text: "Response to preflight request doesn't pass access control check: It does not have HTTP ok status.",
      stage: 'preflight',
    },
  },
  {
    name: 'PUT is blocked when the preflight answer has no CORS headers',
    path: '/items/1',
    switches: 'cors=off',
    initiator: 'fetch',
    method: 'PUT',
    headers: JSON_TYPE,
    body: '{}',
    preflight: true,
    expected: {
      readable: false,
      text: `Response to preflight request doesn't pass access control check: ${NO_ALLOW_ORIGIN}`,
      stage: 'preflight',
    },
  },
  {
    name: "credentials: 'include' is allowed with a reflected origin",
    path: '/me',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'GET',
    credentials: true,
    preflight: false,
    expected: { readable: true },
  },
  {
    name: "credentials: 'include' is blocked with Access-Control-Allow-Origin: '*'",
    path: '/me',
    switches: 'cors=wildcard',
    initiator: 'fetch',
    method: 'GET',
    credentials: true,
    preflight: false,
    expected: {
      readable: false,
      text: "The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.",
      stage: 'response',
    },
  },
  {
    name: 'fetch: a wrong Access-Control-Allow-Origin ends with the valid-value hint',
    path: '/users',
    switches: 'cors=reflect&allowOrigin=http://example.com',
    initiator: 'fetch',
    method: 'GET',
    preflight: false,
    expected: {
      readable: false,
      text: "The 'Access-Control-Allow-Origin' header has a value 'http://example.com' that is not equal to the supplied origin. Have the server send the header with a valid value.",
      stage: 'response',
    },
  },
  {
    name: 'XMLHttpRequest: a wrong Access-Control-Allow-Origin has no valid-value hint',
    path: '/users',
    switches: 'cors=reflect&allowOrigin=http://example.com',
    initiator: 'XMLHttpRequest',
    method: 'GET',
    preflight: false,
    expected: {
      readable: false,
      text: "The 'Access-Control-Allow-Origin' header has a value 'http://example.com' that is not equal to the supplied origin.",
      stage: 'response',
    },
  },
  {
    name: 'XMLHttpRequest: multiple Access-Control-Allow-Origin values have no valid-value hint',
    path: '/users',
    switches: 'cors=reflect&allowOrigin=http://a.test,%20http://b.test',
    initiator: 'XMLHttpRequest',
    method: 'GET',
    preflight: false,
    expected: {
      readable: false,
      text: "The 'Access-Control-Allow-Origin' header contains multiple values 'http://a.test, http://b.test', but only one is allowed.",
      stage: 'response',
    },
  },
  {
    name: 'XMLHttpRequest: an invalid Access-Control-Allow-Origin has no valid-value hint',
    path: '/users',
    switches: 'cors=reflect&allowOrigin=foo',
    initiator: 'XMLHttpRequest',
    method: 'GET',
    preflight: false,
    expected: {
      readable: false,
      text: "The 'Access-Control-Allow-Origin' header contains the invalid value 'foo'.",
      stage: 'response',
    },
  },
  {
    name: 'fetch with TRACE throws a TypeError and sends nothing',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'TRACE',
    preflight: false,
    expected: {
      readable: false,
      threw: "TypeError: Failed to execute 'fetch' on 'Window': 'TRACE' HTTP method is unsupported.",
    },
    notSentByCheck: 'a forbidden method: the browser sends nothing, and check reports no exchange to compare',
  },
  {
    name: 'XMLHttpRequest open() with track throws a SecurityError and sends nothing',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'XMLHttpRequest',
    method: 'track',
    preflight: false,
    expected: {
      readable: false,
      threw:
        "SecurityError: Failed to execute 'open' on 'XMLHttpRequest': 'track' HTTP method is unsupported.",
    },
    notSentByCheck: 'a forbidden method: the browser sends nothing, and check reports no exchange to compare',
  },
  {
    name: 'client hints with values that parse (DPR, Width, Viewport-Width, RTT) are not preflighted',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'GET',
    headers: { DPR: '1.5', Width: '100', 'Viewport-Width': '800', RTT: '100' },
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'client hints Device-Memory, Downlink, ECT and Save-Data with values that parse are not preflighted',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'GET',
    headers: { 'Device-Memory': '0.5', Downlink: '10', ECT: 'slow-2g', 'Save-Data': 'ON' },
    preflight: false,
    expected: { readable: true },
  },
  {
    name: 'a client hint is safelisted against a server that does not answer CORS at all: blocked on the response',
    path: '/users',
    switches: 'cors=off',
    initiator: 'XMLHttpRequest',
    method: 'GET',
    headers: { DPR: '2', 'Save-Data': 'on' },
    preflight: false,
    expected: { readable: false, text: NO_ALLOW_ORIGIN, stage: 'response' },
  },
  {
    name: 'client hints whose values do not parse (DPR 1., ECT 4G) are preflighted',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'fetch',
    method: 'GET',
    headers: { DPR: '1.', ECT: '4G' },
    preflight: true,
    expected: { readable: true },
  },
  {
    name: 'Save-Data: off is preflighted, and blocked by a server without CORS',
    path: '/users',
    switches: 'cors=off',
    initiator: 'fetch',
    method: 'GET',
    headers: { 'Save-Data': 'off' },
    preflight: true,
    expected: {
      readable: false,
      text: `Response to preflight request doesn't pass access control check: ${NO_ALLOW_ORIGIN}`,
      stage: 'preflight',
    },
  },
  {
    name: 'Content-Type: text/plain set twice is judged as text/plain, text/plain and preflighted',
    path: '/items',
    switches: 'cors=reflect',
    initiator: 'fetch',
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
    initiator: 'XMLHttpRequest',
    method: 'GET',
    headers: [
      ['Accept', 'a'.repeat(70)],
      ['Accept', 'b'.repeat(70)],
    ],
    preflight: true,
    expected: {
      readable: false,
      text: `Response to preflight request doesn't pass access control check: ${NO_ALLOW_ORIGIN}`,
      stage: 'preflight',
    },
  },
  {
    name: 'two short Accept values stay simple, and the backend receives them combined',
    path: '/users',
    switches: 'cors=reflect',
    initiator: 'fetch',
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
    initiator: 'fetch',
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
