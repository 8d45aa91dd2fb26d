import { describe, expect, it } from 'vitest'
import { chromiumCorsMessage } from '../../src/browser/chromium-messages.js'
import {
  type CorsPreflightResponseInput,
  type CorsRequestInput,
  type CorsResponseInput,
  evaluateCors,
} from '../../src/browser/evaluate-cors.js'

const URL_ = 'http://localhost:3000/x'
const ORIGIN = 'http://127.0.0.1:5173'
const PREFIX = `Access to fetch at '${URL_}' from origin '${ORIGIN}' has been blocked by CORS policy: `
const PF = "Response to preflight request doesn't pass access control check: "
const VALID = ' Have the server send the header with a valid value.'

const ok = (headers: Record<string, string | string[]> = {}, status = 200): CorsResponseInput => ({
  status,
  headers,
})
const acao = (value: string | string[], extra: Record<string, string> = {}) =>
  ok({ 'access-control-allow-origin': value, ...extra })
const pf = (
  headers: Record<string, string> = {},
  status = 204,
  redirected?: boolean,
): CorsPreflightResponseInput => ({
  status,
  headers,
  redirected,
})

type Row = [
  name: string,
  request: Partial<CorsRequestInput>,
  preflight: CorsPreflightResponseInput | undefined,
  response: CorsResponseInput | undefined,
  expected: { stage: 'preflight' | 'response'; text: string; fix: RegExp } | undefined,
]

// Texts copied from the Chromium 156 console for the same requests and answers.
const rows: Row[] = [
  ['simple, allowed by *', {}, undefined, acao('*'), undefined],
  ['simple, allowed by the origin', {}, undefined, acao(ORIGIN), undefined],
  ['simple, ACAO trimmed', {}, undefined, acao(' * '), undefined],
  [
    'no allow-origin',
    {},
    undefined,
    ok(),
    {
      stage: 'response',
      text: "No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      fix: /Access-Control-Allow-Origin: http:\/\/127\.0\.0\.1:5173/,
    },
  ],
  [
    'wrong origin',
    {},
    undefined,
    acao('http://a.test'),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header has a value 'http://a.test' that is not equal to the supplied origin.${VALID}`,
      fix: /instead of 'http:\/\/a\.test'/,
    },
  ],
  [
    'trailing slash is a wrong origin',
    {},
    undefined,
    acao(`${ORIGIN}/`),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header has a value '${ORIGIN}/' that is not equal to the supplied origin.${VALID}`,
      fix: /cors\.origin/,
    },
  ],
  [
    'null is a wrong origin',
    {},
    undefined,
    acao('null'),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header has a value 'null' that is not equal to the supplied origin.${VALID}`,
      fix: /cors\.origin/,
    },
  ],
  [
    'multiple values in one line',
    {},
    undefined,
    acao('http://a.test, http://b.test'),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header contains multiple values 'http://a.test, http://b.test', but only one is allowed.${VALID}`,
      fix: /exactly one origin/,
    },
  ],
  [
    'the origin sent twice',
    {},
    undefined,
    acao([ORIGIN, ORIGIN]),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header contains multiple values '${ORIGIN}, ${ORIGIN}', but only one is allowed.${VALID}`,
      fix: /remove one/,
    },
  ],
  [
    'invalid value',
    {},
    undefined,
    acao('nonsense'),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header contains the invalid value 'nonsense'.${VALID}`,
      fix: /not 'nonsense'/,
    },
  ],
  [
    'empty value',
    {},
    undefined,
    acao(''),
    {
      stage: 'response',
      text: `The 'Access-Control-Allow-Origin' header contains the invalid value ''.${VALID}`,
      fix: /Access-Control-Allow-Origin/,
    },
  ],
  [
    'wildcard with credentials',
    { credentials: 'include' },
    undefined,
    acao('*'),
    {
      stage: 'response',
      text: "The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.",
      fix: /instead of `\*`/,
    },
  ],
  [
    'credentials without allow-credentials',
    { credentials: 'include' },
    undefined,
    acao(ORIGIN),
    {
      stage: 'response',
      text: "The value of the 'Access-Control-Allow-Credentials' header in the response is '' which must be 'true' when the request's credentials mode is 'include'.",
      fix: /credentials: true/,
    },
  ],
  [
    'allow-credentials True is case-sensitive',
    { credentials: 'include' },
    undefined,
    acao(ORIGIN, { 'access-control-allow-credentials': 'True' }),
    {
      stage: 'response',
      text: "The value of the 'Access-Control-Allow-Credentials' header in the response is 'True' which must be 'true' when the request's credentials mode is 'include'.",
      fix: /credentials/,
    },
  ],
  [
    'credentials allowed',
    { credentials: 'include' },
    undefined,
    acao(ORIGIN, { 'access-control-allow-credentials': 'true' }),
    undefined,
  ],
  [
    'preflight without allow-origin',
    { method: 'PUT' },
    pf(),
    undefined,
    {
      stage: 'preflight',
      text: `${PF}No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
      fix: /preflight \(OPTIONS\) answer/,
    },
  ],
  [
    'preflight 404 without allow-origin: allow-origin is checked first',
    { method: 'PUT' },
    pf({}, 404),
    undefined,
    {
      stage: 'preflight',
      text: `${PF}No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
      fix: /Access-Control-Allow-Origin/,
    },
  ],
  [
    'preflight 404 with allow-origin',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*' }, 404),
    undefined,
    { stage: 'preflight', text: `${PF}It does not have HTTP ok status.`, fix: /2xx status instead of 404/ },
  ],
  [
    'preflight 500 with a wrong origin: origin first',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': 'http://a.test' }, 500),
    undefined,
    {
      stage: 'preflight',
      text: `${PF}The 'Access-Control-Allow-Origin' header has a value 'http://a.test' that is not equal to the supplied origin.${VALID}`,
      fix: /cors\.origin/,
    },
  ],
  [
    'preflight 404 without allow-credentials: credentials before status',
    { method: 'PUT', credentials: 'include' },
    pf({ 'access-control-allow-origin': ORIGIN }, 404),
    undefined,
    {
      stage: 'preflight',
      text: `${PF}The value of the 'Access-Control-Allow-Credentials' header in the response is '' which must be 'true' when the request's credentials mode is 'include'.`,
      fix: /credentials/,
    },
  ],
  [
    'preflight redirected',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*' }, 204, true),
    undefined,
    {
      stage: 'preflight',
      text: `${PF}Redirect is not allowed for a preflight request.`,
      fix: /never follows/,
    },
  ],
  [
    'preflight 302 with Location is a redirect, checked first',
    { method: 'PUT' },
    pf({ location: '/elsewhere' }, 302),
    undefined,
    { stage: 'preflight', text: `${PF}Redirect is not allowed for a preflight request.`, fix: /redirect/ },
  ],
  [
    'preflight wildcard with credentials',
    { method: 'PUT', credentials: 'include' },
    pf({ 'access-control-allow-origin': '*' }),
    undefined,
    {
      stage: 'preflight',
      text: `${PF}The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.`,
      fix: /instead of `\*`/,
    },
  ],
  [
    'method not allowed',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.',
      fix: /add `PUT` to `cors\.methods`/,
    },
  ],
  [
    'method checked before headers',
    { method: 'PUT', headers: { 'x-foo': '1' } },
    pf({ 'access-control-allow-origin': '*' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.',
      fix: /PUT/,
    },
  ],
  [
    'lowercase patch does not match PATCH',
    { method: 'patch' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'PATCH' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Method patch is not allowed by Access-Control-Allow-Methods in preflight response.',
      fix: /send `PATCH` from the script/,
    },
  ],
  [
    'lowercase patch listed as patch',
    { method: 'patch' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'patch' }),
    acao('*'),
    undefined,
  ],
  [
    'methods compared case-sensitively',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'put' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.',
      fix: /PUT/,
    },
  ],
  [
    'method * without credentials',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': '*' }),
    acao('*'),
    undefined,
  ],
  [
    'method * with credentials is a literal',
    { method: 'PUT', credentials: 'include' },
    pf({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': '*',
    }),
    undefined,
    {
      stage: 'preflight',
      text: 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.',
      fix: /PUT/,
    },
  ],
  [
    'methods list with tabs and empty items',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET,\tPUT\t, ,' }),
    acao('*'),
    undefined,
  ],
  [
    'unparsable methods',
    { method: 'PUT', headers: { 'x-a': '1' } },
    pf({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'PU T',
      'access-control-allow-headers': 'x a',
    }),
    undefined,
    {
      stage: 'preflight',
      text: 'Cannot parse Access-Control-Allow-Methods response header field in preflight response.',
      fix: /comma-separated list of method names/,
    },
  ],
  [
    'unparsable headers before a disallowed method',
    { method: 'PUT', headers: { 'x-a': '1' } },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-headers': 'x a' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Cannot parse Access-Control-Allow-Headers response header field in preflight response.',
      fix: /header names/,
    },
  ],
  [
    'status checked before parsing',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'PU T' }, 404),
    undefined,
    { stage: 'preflight', text: `${PF}It does not have HTTP ok status.`, fix: /404/ },
  ],
  [
    'header not allowed',
    { method: 'PUT', headers: { 'X-Foo': '1' } },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'PUT' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.',
      fix: /add `x-foo` to `cors\.allowedHeaders`/,
    },
  ],
  [
    'json content-type needs listing',
    { method: 'POST', headers: { 'content-type': 'application/json', 'x-a': '1' } },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-headers': 'x-a' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Request header field content-type is not allowed by Access-Control-Allow-Headers in preflight response.',
      fix: /content-type/,
    },
  ],
  [
    'several disallowed: the first in sorted order',
    { headers: { 'x-zed': '1', 'x-foo': '1' } },
    pf({ 'access-control-allow-origin': '*' }),
    undefined,
    {
      stage: 'preflight',
      text: 'Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.',
      fix: /x-foo/,
    },
  ],
  [
    'headers listed case-insensitively',
    { headers: { 'X-Foo': '1' } },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-headers': 'X-FOO' }),
    acao('*'),
    undefined,
  ],
  [
    'header * with credentials is a literal',
    { headers: { 'x-a': '1' }, credentials: 'include' },
    pf({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': '*',
    }),
    undefined,
    {
      stage: 'preflight',
      text: 'Request header field x-a is not allowed by Access-Control-Allow-Headers in preflight response.',
      fix: /x-a/,
    },
  ],
  [
    'Authorization with * and credentials',
    { headers: { authorization: 'x' }, credentials: 'include' },
    pf({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': '*',
    }),
    undefined,
    {
      stage: 'preflight',
      text: 'Request header field authorization is not allowed by Access-Control-Allow-Headers in preflight response.',
      fix: /authorization/,
    },
  ],
  [
    'preflight passes, the response has no allow-origin',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'PUT' }),
    ok({}, 500),
    {
      stage: 'response',
      text: "No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      fix: /on the response/,
    },
  ],
  [
    'a 500 with allow-origin is readable',
    {},
    undefined,
    ok({ 'access-control-allow-origin': '*' }, 500),
    undefined,
  ],
  [
    'preflight 299 is ok',
    { method: 'PUT' },
    pf({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'PUT' }, 299),
    acao('*'),
    undefined,
  ],
]

describe('evaluateCors: Chromium 156 texts and order', () => {
  it.each(rows)('%s', (_name, request, preflight, response, expected) => {
    const verdict = evaluateCors(
      { url: URL_, origin: ORIGIN, method: 'GET', ...request },
      preflight,
      response,
    )
    if (expected === undefined) {
      expect(verdict).toMatchObject({ allowed: true })
      expect(verdict.message).toBeUndefined()
      return
    }
    expect(verdict.allowed).toBe(false)
    expect(verdict.stage).toBe(expected.stage)
    expect(verdict.message).toBe(PREFIX + expected.text)
    expect(verdict.fix).toMatch(expected.fix)
  })
})

describe('evaluateCors: other behaviour', () => {
  it('allows same-origin requests whatever the answers', () => {
    const verdict = evaluateCors(
      {
        url: 'http://localhost:3000/x',
        origin: 'http://localhost:3000',
        method: 'PUT',
        headers: { 'x-a': '1' },
      },
      pf({}, 500),
      ok(),
    )
    expect(verdict).toEqual({ allowed: true, preflight: false, reasons: [], readableHeaders: [] })
  })

  it('lets Authorization through * (as Chromium 156 does) but says to list it', () => {
    const verdict = evaluateCors(
      { url: URL_, origin: ORIGIN, method: 'GET', headers: { authorization: 'Bearer x', 'x-a': '1' } },
      pf({ 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' }),
      acao('*'),
    )
    expect(verdict.allowed).toBe(true)
    expect(verdict.preflight).toBe(true)
    expect(verdict.fix).toMatch(/list `authorization` explicitly/)
  })

  it('says why the request is preflighted', () => {
    const verdict = evaluateCors({ url: URL_, origin: ORIGIN, method: 'PUT' }, undefined, acao('*'))
    expect(verdict).toMatchObject({ allowed: true, preflight: true })
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(['method'])
  })

  it('checks only the answers it is given', () => {
    const request = { url: URL_, origin: ORIGIN, method: 'PUT' }
    expect(evaluateCors(request).allowed).toBe(true)
    expect(evaluateCors(request, undefined, ok()).stage).toBe('response')
    expect(evaluateCors(request, pf()).stage).toBe('preflight')
    // A simple request has no preflight to check, whatever is passed.
    expect(evaluateCors({ ...request, method: 'GET' }, pf({}, 500), acao('*')).allowed).toBe(true)
  })

  it('serializes the URL and the origin as the browser does', () => {
    const verdict = evaluateCors(
      { url: 'HTTP://LOCALHOST:3000', origin: 'HTTP://127.0.0.1:5173', method: 'GET' },
      undefined,
      ok(),
    )
    expect(verdict.message).toBe(
      "Access to fetch at 'http://localhost:3000/' from origin 'http://127.0.0.1:5173' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    )
  })

  it('compares the allow-origin value with the opaque origin as the string null', () => {
    expect(evaluateCors({ url: URL_, origin: 'null', method: 'GET' }, undefined, acao('null')).allowed).toBe(
      true,
    )
  })

  it('words XMLHttpRequest messages as Chromium does', () => {
    const verdict = evaluateCors(
      { url: URL_, origin: ORIGIN, method: 'GET', credentials: 'include', initiator: 'XMLHttpRequest' },
      undefined,
      acao('*'),
    )
    expect(verdict.message).toBe(
      `Access to XMLHttpRequest at '${URL_}' from origin '${ORIGIN}' has been blocked by CORS policy: The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'. The credentials mode of requests initiated by the XMLHttpRequest is controlled by the withCredentials attribute.`,
    )
  })

  it.each([
    ['http://example.com', "has a value 'http://example.com' that is not equal to the supplied origin."],
    [
      'http://a.test, http://b.test',
      "contains multiple values 'http://a.test, http://b.test', but only one is allowed.",
    ],
    ['foo', "contains the invalid value 'foo'."],
  ])(
    'ends the allow-origin text for %s without the valid-value hint for XMLHttpRequest only',
    (value, text) => {
      const xhr = evaluateCors(
        { url: URL_, origin: ORIGIN, method: 'GET', initiator: 'XMLHttpRequest' },
        undefined,
        acao(value),
      )
      expect(xhr.message).toBe(
        `Access to XMLHttpRequest at '${URL_}' from origin '${ORIGIN}' has been blocked by CORS policy: The 'Access-Control-Allow-Origin' header ${text}`,
      )
      const fetchVerdict = evaluateCors({ url: URL_, origin: ORIGIN, method: 'GET' }, undefined, acao(value))
      expect(fetchVerdict.message).toBe(`${PREFIX}The 'Access-Control-Allow-Origin' header ${text}${VALID}`)
    },
  )

  it.each([
    [
      'TRACE',
      'fetch',
      "TypeError: Failed to execute 'fetch' on 'Window': 'TRACE' HTTP method is unsupported.",
    ],
    [
      'trace',
      'fetch',
      "TypeError: Failed to execute 'fetch' on 'Window': 'trace' HTTP method is unsupported.",
    ],
    [
      'CONNECT',
      'fetch',
      "TypeError: Failed to execute 'fetch' on 'Window': 'CONNECT' HTTP method is unsupported.",
    ],
    [
      'TRACK',
      'XMLHttpRequest',
      "SecurityError: Failed to execute 'open' on 'XMLHttpRequest': 'TRACK' HTTP method is unsupported.",
    ],
  ] as const)(
    'refuses the forbidden method %s (%s) before anything is sent, same-origin too',
    (method, initiator, text) => {
      for (const url of [URL_, `${ORIGIN}/x`]) {
        const verdict = evaluateCors({ url, origin: ORIGIN, method, initiator }, pf(), acao('*'))
        expect(verdict).toMatchObject({ allowed: false, preflight: false, scriptError: text, reasons: [] })
        expect(verdict.message).toBeUndefined()
        expect(verdict.stage).toBeUndefined()
      }
    },
  )

  it('names one refused header and lists them all in the error and the fix', () => {
    const verdict = evaluateCors(
      {
        url: URL_,
        origin: ORIGIN,
        method: 'PUT',
        headers: { 'X-C': '1', 'X-A': '1', 'X-B': '1', 'X-Ok': '1' },
      },
      pf({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-methods': 'PUT',
        'access-control-allow-headers': 'x-ok',
      }),
    )
    expect(verdict.message).toBe(
      `${PREFIX}Request header field x-a is not allowed by Access-Control-Allow-Headers in preflight response.`,
    )
    expect(verdict.error).toMatchObject({
      kind: 'header-not-allowed',
      hint: 'x-a',
      headers: ['x-a', 'x-b', 'x-c'],
    })
    expect(verdict.fix).toBe(
      'add `x-a`, `x-b` and `x-c` to `cors.allowedHeaders` (Access-Control-Allow-Headers), or let cors-dev-proxy answer the preflight with `cors: true`',
    )
  })

  it('builds messages from the shared builder', () => {
    expect(
      chromiumCorsMessage({
        url: URL_,
        origin: ORIGIN,
        error: { kind: 'preflight-invalid-status', preflight: true },
      }),
    ).toBe(`${PREFIX}${PF}It does not have HTTP ok status.`)
  })
})
