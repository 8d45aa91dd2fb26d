import { describe, expect, it } from 'vitest'
import { type ClassifyRequestInput, classifyRequest } from '../../src/browser/classify-request.js'
import { isForbiddenRequestHeader, isSafelistedRange } from '../../src/browser/request-header-rules.js'
import { normalizeMethod } from '../../src/http/method.js'
import { mimeEssence } from '../../src/http/mime.js'

// Expected results were observed in Chromium 156 (whether an OPTIONS preflight arrived, and its
// Access-Control-Request-Method / -Headers), then written down as a table.
type Row = [
  name: string,
  input: ClassifyRequestInput,
  kind: 'simple' | 'preflight',
  unsafe: string[],
  method: string,
]

const rows: Row[] = [
  ['plain GET', { method: 'GET' }, 'simple', [], 'GET'],
  ['lowercase get', { method: 'get' }, 'simple', [], 'GET'],
  [
    'POST text/plain',
    { method: 'POST', headers: { 'Content-Type': 'text/plain;charset=UTF-8' } },
    'simple',
    [],
    'POST',
  ],
  [
    'POST spaced, cased text/plain',
    { method: 'POST', headers: { 'content-type': '  Text/Plain ; charset=utf-8' } },
    'simple',
    [],
    'POST',
  ],
  [
    'POST multipart',
    { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
    'simple',
    [],
    'POST',
  ],
  [
    'POST urlencoded',
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    'simple',
    [],
    'POST',
  ],
  [
    'POST json',
    { method: 'POST', headers: { 'content-type': 'application/json' } },
    'preflight',
    ['content-type'],
    'POST',
  ],
  [
    'content-type with a quote',
    { method: 'POST', headers: { 'content-type': 'text/plain; a="b"' } },
    'preflight',
    ['content-type'],
    'POST',
  ],
  [
    'content-type with @',
    { method: 'POST', headers: { 'content-type': 'text/plain; a=b@c' } },
    'preflight',
    ['content-type'],
    'POST',
  ],
  [
    'content-type list',
    { method: 'POST', headers: { 'content-type': 'text/plain,application/json' } },
    'preflight',
    ['content-type'],
    'POST',
  ],
  [
    'content-type text/plain/x',
    { method: 'POST', headers: { 'content-type': 'text/plain/x' } },
    'preflight',
    ['content-type'],
    'POST',
  ],
  [
    'content-type "text / plain"',
    { method: 'POST', headers: { 'content-type': 'text / plain' } },
    'preflight',
    ['content-type'],
    'POST',
  ],
  ['accept of 128 bytes', { method: 'GET', headers: { accept: 'a'.repeat(128) } }, 'simple', [], 'GET'],
  [
    'accept of 129 bytes',
    { method: 'GET', headers: { accept: 'a'.repeat(129) } },
    'preflight',
    ['accept'],
    'GET',
  ],
  ['accept with (', { method: 'GET', headers: { accept: 'text/html(x' } }, 'preflight', ['accept'], 'GET'],
  ['accept with a tab', { method: 'GET', headers: { accept: 'a\tb' } }, 'simple', [], 'GET'],
  [
    'accept-language ok',
    { method: 'GET', headers: { 'accept-language': 'en-US,en;q=0.9' } },
    'simple',
    [],
    'GET',
  ],
  [
    'accept-language with _',
    { method: 'GET', headers: { 'accept-language': 'en_US' } },
    'preflight',
    ['accept-language'],
    'GET',
  ],
  [
    'content-language with /',
    { method: 'GET', headers: { 'content-language': 'en/x' } },
    'preflight',
    ['content-language'],
    'GET',
  ],
  ['range bytes=0-', { method: 'GET', headers: { range: 'bytes=0-' } }, 'simple', [], 'GET'],
  ['range bytes=0-10', { method: 'GET', headers: { range: 'bytes=0-10' } }, 'simple', [], 'GET'],
  ['range bytes=500-, open-ended', { method: 'GET', headers: { range: 'bytes=500-' } }, 'simple', [], 'GET'],
  ['range bytes=10-0', { method: 'GET', headers: { range: 'bytes=10-0' } }, 'preflight', ['range'], 'GET'],
  ['range suffix', { method: 'GET', headers: { range: 'bytes=-5' } }, 'preflight', ['range'], 'GET'],
  ['two ranges', { method: 'GET', headers: { range: 'bytes=0-1,3-4' } }, 'preflight', ['range'], 'GET'],
  ['range with spaces', { method: 'GET', headers: { range: 'bytes = 0-1' } }, 'preflight', ['range'], 'GET'],
  ['range Bytes', { method: 'GET', headers: { range: 'Bytes=0-1' } }, 'preflight', ['range'], 'GET'],
  ['custom header, even empty', { method: 'GET', headers: { 'x-a': '' } }, 'preflight', ['x-a'], 'GET'],
  [
    'names sorted and lowercased',
    { method: 'GET', headers: { 'X-Zed': '1', Authorization: 'x', 'x-a': '1' } },
    'preflight',
    ['authorization', 'x-a', 'x-zed'],
    'GET',
  ],
  ['delete uppercased', { method: 'delete' }, 'preflight', [], 'DELETE'],
  ['put uppercased', { method: 'put' }, 'preflight', [], 'PUT'],
  ['patch stays lowercase', { method: 'patch' }, 'preflight', [], 'patch'],
  ['PATCH', { method: 'PATCH' }, 'preflight', [], 'PATCH'],
  ['unknown method as written', { method: 'foo' }, 'preflight', [], 'foo'],
  ['OPTIONS', { method: 'options' }, 'preflight', [], 'OPTIONS'],
  ['forbidden User-Agent dropped', { method: 'GET', headers: { 'user-agent': 'x' } }, 'simple', [], 'GET'],
  [
    'forbidden Proxy-/Sec- dropped',
    { method: 'GET', headers: { 'proxy-x': 'x', 'sec-foo': '1', cookie: 'a=b' } },
    'simple',
    [],
    'GET',
  ],
  [
    'method override to PUT is sent',
    { method: 'POST', headers: { 'x-http-method-override': 'PUT' } },
    'preflight',
    ['x-http-method-override'],
    'POST',
  ],
  [
    'method override to TRACE is dropped',
    { method: 'POST', headers: { 'x-http-method-override': 'trace' } },
    'simple',
    [],
    'POST',
  ],
  ['ReadableStream body', { method: 'POST', hasReadableStreamBody: true }, 'preflight', [], 'POST'],
  ['upload listeners', { method: 'POST', hasUploadListeners: true }, 'preflight', [], 'POST'],
  ['credentials do not matter', { method: 'GET', credentials: 'include' }, 'simple', [], 'GET'],
  [
    'Headers instance',
    { method: 'GET', headers: new Headers({ 'X-Foo': '1' }) },
    'preflight',
    ['x-foo'],
    'GET',
  ],
  [
    'entries with repeats',
    {
      method: 'GET',
      headers: [
        ['x-b', '1'],
        ['X-B', '2'],
        ['x-a', '3'],
      ],
    },
    'preflight',
    ['x-a', 'x-b'],
    'GET',
  ],
]

describe('classifyRequest (Fetch standard, as Chromium 156 behaves)', () => {
  it.each(rows)('%s', (_name, input, kind, unsafe, method) => {
    const result = classifyRequest(input)
    expect(result.kind).toBe(kind)
    expect(result.unsafeHeaderNames).toEqual(unsafe)
    expect(result.method).toBe(method)
    expect(result.reasons.length > 0).toBe(kind === 'preflight')
  })

  // Chromium 156: simple when the value parses, preflighted (named in Access-Control-Request-Headers) when not.
  it.each([
    ['DPR', '2', true],
    ['DPR', '1.5', true],
    ['DPR', '01', true],
    ['DPR', 'abc', false],
    ['DPR', '-1', false],
    ['DPR', '1e2', false],
    ['DPR', '.5', false],
    ['DPR', '1.', false],
    ['DPR', '1.1.1', false],
    ['Width', '100', true],
    ['Width', '1.5', false],
    ['Width', '1'.repeat(129), false],
    ['Viewport-Width', '800', true],
    ['Viewport-Width', '8.5', false],
    ['Device-Memory', '0.5', true],
    ['Device-Memory', 'x', false],
    ['RTT', '100', true],
    ['RTT', '1.5', false],
    ['Downlink', '10', true],
    ['Downlink', '1.5', true],
    ['Downlink', 'x', false],
    ['ECT', '4g', true],
    ['ECT', 'slow-2g', true],
    ['ECT', '5g', false],
    ['ECT', '4G', false],
    ['ECT', '', false],
    ['Save-Data', 'on', true],
    ['Save-Data', 'ON', true],
    ['Save-Data', 'off', false],
  ])('client hint %s: %j is safelisted: %s', (name, value, safelisted) => {
    const result = classifyRequest({ method: 'GET', headers: { [name]: value } })
    expect(result.kind).toBe(safelisted ? 'simple' : 'preflight')
    expect(result.unsafeHeaderNames).toEqual(safelisted ? [] : [name.toLowerCase()])
    if (!safelisted && value.length <= 128) {
      expect(result.reasons[0]).toMatchObject({ code: 'client-hint', header: name.toLowerCase() })
    }
  })

  it('makes every safelisted header unsafe when their values exceed 1024 bytes in total', () => {
    const lines: Array<[string, string]> = [
      ['accept', 'a'.repeat(120)],
      ['accept-language', 'a'.repeat(120)],
      ['content-language', 'a'.repeat(120)],
      ...['width', 'viewport-width', 'rtt', 'dpr', 'device-memory', 'downlink'].map(
        (name): [string, string] => [name, '1'.repeat(120)],
      ),
    ]
    const result = classifyRequest({ method: 'GET', headers: lines })
    expect(result.kind).toBe('preflight')
    expect(result.unsafeHeaderNames).toEqual(lines.map(([name]) => name).sort())
    expect(result.reasons.map((reason) => reason.code)).toEqual(['safelisted-total'])
    expect(classifyRequest({ method: 'GET', headers: lines.slice(0, 8) }).kind).toBe('simple')
  })

  it('judges a header set more than once on its combined value, length limits included', () => {
    const twice = (name: string, value: string) =>
      classifyRequest({
        method: 'POST',
        headers: [
          [name, value],
          [name, value],
        ],
      })
    expect(twice('Content-Type', 'text/plain')).toMatchObject({
      kind: 'preflight',
      unsafeHeaderNames: ['content-type'],
    })
    expect(twice('Content-Type', 'text/plain').reasons[0]?.message).toBe(
      "Content-Type 'text/plain, text/plain' is not application/x-www-form-urlencoded, multipart/form-data or text/plain",
    )
    expect(twice('Accept', 'a'.repeat(70))).toMatchObject({
      kind: 'preflight',
      unsafeHeaderNames: ['accept'],
    })
    expect(twice('Accept', 'a'.repeat(70)).reasons[0]?.code).toBe('header-too-long')
    expect(twice('Accept', 'a').kind).toBe('simple')
    expect(twice('Accept', 'a'.repeat(63)).kind).toBe('simple')
    expect(twice('Range', 'bytes=0-')).toMatchObject({ kind: 'preflight', unsafeHeaderNames: ['range'] })
    expect(classifyRequest({ method: 'GET', headers: { 'Accept-Language': ['en', 'fr'] } }).kind).toBe(
      'simple',
    )
  })

  it('explains each reason in words', () => {
    const { reasons } = classifyRequest({
      method: 'patch',
      headers: { 'content-type': 'application/json', 'x-foo': '1', accept: 'a'.repeat(200) },
    })
    const byCode = Object.fromEntries(reasons.map((reason) => [reason.code, reason]))
    expect(byCode.method?.message).toContain('the method patch is not GET, HEAD or POST')
    expect(byCode.method?.message).toContain('sent as written')
    expect(byCode['content-type']?.message).toBe(
      "Content-Type 'application/json' is not application/x-www-form-urlencoded, multipart/form-data or text/plain",
    )
    expect(byCode.header).toMatchObject({ header: 'x-foo' })
    expect(byCode.header?.message).toContain('x-foo is not CORS-safelisted')
    expect(byCode['header-too-long']?.message).toContain('200 bytes long, over the 128 bytes')
  })

  it('lists the forbidden headers it ignored', () => {
    const result = classifyRequest({
      method: 'GET',
      headers: { Cookie: 'a=b', 'Sec-Fetch-Mode': 'cors', 'x-a': '1' },
    })
    expect(result.forbiddenHeaderNames).toEqual(['cookie', 'sec-fetch-mode'])
    expect(result.unsafeHeaderNames).toEqual(['x-a'])
  })
})

describe('header rules', () => {
  it.each([
    ['text/plain', 'text/plain'],
    [' TEXT/Plain ;charset=utf-8', 'text/plain'],
    ['text/plain ;', 'text/plain'],
    ['text/plain/x', null],
    ['text /plain', null],
    ['/plain', null],
    ['text/', null],
    ['text', null],
  ])('mimeEssence(%j) → %j', (value, expected) => {
    expect(mimeEssence(value)).toBe(expected)
  })

  it.each([
    ['bytes=0-', true],
    ['bytes=7-', true],
    ['bytes=5-5', true],
    ['bytes=6-5', false],
    ['bytes=99999999999999999999-100000000000000000000', false],
    ['bytes=9223372036854775805-9223372036854775806', true],
    ['bytes=9223372036854775806-', true],
    ['bytes=9223372036854775807-', false],
    ['bytes=0-9223372036854775807', false],
    ['bytes=0-9223372036854775808', false],
    ['bytes=-1', false],
    ['bytes=0-1,2-3', false],
    ['bytes=a-', false],
  ])('isSafelistedRange(%j) → %s', (value, expected) => {
    expect(isSafelistedRange(value)).toBe(expected)
  })

  it.each([
    ['Host', '', true],
    ['proxy-authorization', 'x', true],
    ['Sec-CH-UA', 'x', true],
    ['x-method-override', 'GET, connect', true],
    ['x-method-override', 'GET', false],
    ['authorization', 'x', false],
    ['x-foo', 'x', false],
  ])('isForbiddenRequestHeader(%s: %s) → %s', (name, value, expected) => {
    expect(isForbiddenRequestHeader(name, value)).toBe(expected)
  })

  it('normalizes only the six methods', () => {
    expect(
      ['get', 'Post', 'put', 'delete', 'head', 'options', 'patch', 'Patch'].map(normalizeMethod),
    ).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'patch', 'Patch'])
  })
})
