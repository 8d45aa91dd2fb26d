import { type BrowserCorsCase, bothInitiators, type Scenario } from './case-types.js'

/**
 * The CORS-safelisted request-header rules (Fetch standard §2.2.2, and Chromium's client hints),
 * each with edge values: a simple GET (or POST for Content-Type) to a backend that allows
 * everything, so the case shows whether Chromium preflights it and which names it lists in
 * Access-Control-Request-Headers (the test compares them with `classifyRequest`).
 */

/** A GET with these headers to a backend that allows it, preflighted or not. */
function get(name: string, headers: Scenario['headers'], preflight: boolean): Scenario {
  return {
    name,
    path: '/users',
    switches: 'cors=reflect',
    method: 'GET',
    headers,
    preflight,
    expected: { readable: true },
  }
}

/** A body-less POST with this Content-Type (a body would make XMLHttpRequest rewrite its charset). */
function contentType(value: string, preflight: boolean, why = ''): Scenario {
  return {
    name: `Content-Type ${JSON.stringify(value)} is ${preflight ? 'preflighted' : 'simple'}${why}`,
    path: '/items',
    switches: 'cors=reflect',
    method: 'POST',
    headers: { 'Content-Type': value },
    preflight,
    expected: { readable: true },
  }
}

function one(header: string, value: string, preflight: boolean, why = ''): Scenario {
  return get(
    `${header} ${JSON.stringify(value)} is ${preflight ? 'preflighted' : 'simple'}${why}`,
    { [header]: value },
    preflight,
  )
}

/** A value of exactly `length` bytes starting with `start`, padded with `pad`. */
function sized(start: string, length: number, pad = 'a'): string {
  return start + pad.repeat(length - start.length)
}

const ACCEPT: Scenario[] = [
  one('Accept', 'application/json', false),
  one('Accept', 'text/html, application/xhtml+xml;q=0.9, */*;q=0.8', false),
  one('Accept', 'text/(html)', true, ': ( and ) are CORS-unsafe bytes'),
  one('Accept', 'text/html;a="b"', true, ': " is a CORS-unsafe byte'),
  one('Accept', 'user@host', true, ': @ is a CORS-unsafe byte'),
  one('Accept', 'a{b}', true, ': { and } are CORS-unsafe bytes'),
  one('Accept', 'a[b]', true, ': [ and ] are CORS-unsafe bytes'),
  one('Accept', 'a<b>?', true, ': <, > and ? are CORS-unsafe bytes'),
  one('Accept', 'a:b', true, ': a colon is a CORS-unsafe byte'),
  one('Accept', 'a\\b', true, ': a backslash is a CORS-unsafe byte'),
  one('Accept', 'a\tb', false, ': a tab is the one control byte allowed'),
  get('Accept of 128 bytes is simple', { Accept: sized('text/', 128) }, false),
  get('Accept of 129 bytes is preflighted', { Accept: sized('text/', 129) }, true),
  get(
    'Accept of 128 bytes between spaces is simple: the value is trimmed first',
    { Accept: ` ${sized('text/', 128)} ` },
    false,
  ),
]

const LANGUAGE: Scenario[] = [
  one('Accept-Language', 'en-US,en;q=0.9', false),
  one('Accept-Language', '*', false),
  one('Accept-Language', 'de_DE', true, ': _ is not in 0-9A-Za-z *,-.;='),
  one('Accept-Language', 'en/us', true, ': / is not in 0-9A-Za-z *,-.;='),
  one('Accept-Language', 'fr(ch)', true, ': ( is not in 0-9A-Za-z *,-.;='),
  get('Accept-Language of 128 bytes is simple', { 'Accept-Language': sized('en-', 128) }, false),
  get('Accept-Language of 129 bytes is preflighted', { 'Accept-Language': sized('en-', 129) }, true),
  one('Content-Language', 'en', false),
  one('Content-Language', 'de-DE, en-GB', false),
  one('Content-Language', 'en!', true, ': ! is not in 0-9A-Za-z *,-.;='),
  one('Content-Language', 'en:us', true, ': a colon is not in 0-9A-Za-z *,-.;='),
  one('Content-Language', 'en\tus', true, ': a tab is not in 0-9A-Za-z *,-.;='),
  get('Content-Language of 128 bytes is simple', { 'Content-Language': sized('en-', 128) }, false),
  get('Content-Language of 129 bytes is preflighted', { 'Content-Language': sized('en-', 129) }, true),
]

const CONTENT_TYPE: Scenario[] = [
  contentType('text/plain', false),
  contentType('TEXT/Plain', false, ': the essence is compared lowercased'),
  contentType('text/plain; charset=utf-8', false),
  contentType('text/plain;charset=utf-8;foo=bar', false),
  contentType('text/plain;', false, ': an empty parameter list still parses'),
  contentType('multipart/form-data; boundary=x', false),
  contentType('application/x-www-form-urlencoded', false),
  contentType('application/json', true),
  contentType('text/html', true),
  contentType('text/plainx', true),
  contentType('text', true, ': not a MIME type'),
  contentType('text /plain', true, ': a space before the slash makes it invalid'),
  contentType('text/plain, text/html', true, ': two types do not parse as one'),
  contentType('text/plain; charset="utf-8"', true, ': " is a CORS-unsafe byte even inside a valid MIME type'),
  contentType('text/plain; charset=(x)', true, ': ( and ) are CORS-unsafe bytes'),
  contentType('text/plain; a@b', true, ': @ is a CORS-unsafe byte'),
  {
    ...contentType(sized('text/plain; a=', 128), false),
    name: 'Content-Type text/plain with a parameter, 128 bytes, is simple',
  },
  {
    ...contentType(sized('text/plain; a=', 129), true),
    name: 'Content-Type text/plain with a parameter, 129 bytes, is preflighted',
  },
]

const RANGE: Scenario[] = [
  one('Range', 'bytes=0-', false),
  one('Range', 'bytes=0-99', false),
  one('Range', 'bytes=5-5', false),
  one('Range', 'bytes=00-01', false, ': leading zeros are digits'),
  one('Range', 'bytes=10-5', true, ': the first position is after the last'),
  one('Range', 'bytes=-5', true, ': a suffix range is not safelisted'),
  one('Range', 'bytes=0-1,3-4', true, ': two ranges'),
  one('Range', 'items=0-1', true, ': not a byte range'),
  one('Range', 'Bytes=0-1', true, ': the unit bytes is case-sensitive'),
  one('Range', 'bytes =0-1', true, ': no whitespace allowed'),
  one('Range', 'bytes= 0-1', true, ': no whitespace allowed'),
  one('Range', 'bytes=0 -1', true, ': no whitespace allowed'),
  one('Range', 'bytes=0-9223372036854775806', false, ': 2^63 - 2, the largest position Chromium safelists'),
  one('Range', 'bytes=0-9223372036854775807', true, ': 2^63 - 1 is refused by Chromium'),
  one('Range', 'bytes=9223372036854775807-', true, ': 2^63 - 1 as the first position too'),
  one('Range', 'bytes=0-99999999999999999999', true, ': a 20-digit position does not parse in Chromium'),
  one('Range', 'bytes=', true, ': no range'),
]

const CLIENT_HINTS: Scenario[] = [
  one('DPR', '1.5', false),
  one('DPR', '2', false),
  one('DPR', '.5', true, ': a decimal starts with a digit'),
  one('DPR', '1.', true, ': a digit must follow the dot'),
  one('DPR', '-1', true, ': no sign'),
  one('DPR', '1e2', true, ': no exponent'),
  one('DPR', '1.1.1', true, ': one dot at most'),
  one('Device-Memory', '8', false),
  one('Device-Memory', '0.25', false),
  one('Device-Memory', 'eight', true),
  one('Downlink', '10.5', false),
  one('Downlink', '10 Mbps', true),
  one('Width', '100', false),
  one('Width', '1.5', true, ': Width is an integer'),
  one('Width', '-1', true),
  one('Viewport-Width', '0', false),
  one('Viewport-Width', '800px', true),
  one('RTT', '50', false),
  one('RTT', '1.5', true, ': RTT is an integer'),
  one('ECT', '4g', false),
  one('ECT', 'slow-2g', false),
  one('ECT', '4G', true, ': ECT values are case-sensitive'),
  one('ECT', '5g', true),
  one('Save-Data', 'on', false),
  one('Save-Data', 'On', false, ': on in any case'),
  one('Save-Data', 'off', true),
  one('Save-Data', '1', true),
  get('a client hint of 128 digits is simple', { Width: '1'.repeat(128) }, false),
  get('a client hint of 129 digits is preflighted', { Width: '1'.repeat(129) }, true),
]

/** Eight safelisted values of 128 bytes: 1024 in total, the limit itself. */
const AT_LIMIT = {
  Accept: sized('text/', 128),
  'Accept-Language': sized('en-', 128),
  'Content-Language': sized('en-', 128),
  DPR: '1'.repeat(128),
  Width: '1'.repeat(128),
  'Viewport-Width': '1'.repeat(128),
  RTT: '1'.repeat(128),
  'Device-Memory': '1'.repeat(128),
}

const TOTAL: Scenario[] = [
  get('safelisted values of 1024 bytes in total are simple', AT_LIMIT, false),
  get(
    'safelisted values of 1025 bytes in total are all preflighted',
    { ...AT_LIMIT, ECT: '4g', Downlink: '1' },
    true,
  ),
  get(
    '1024 safelisted bytes plus a custom header: the custom one is listed',
    { ...AT_LIMIT, 'X-Foo': '1' },
    true,
  ),
]

const FORBIDDEN: Scenario[] = [
  one('Cookie', 'a=1', false, ': the browser drops it'),
  one('Sec-Foo', '1', false, ': Sec-* is dropped'),
  one('Proxy-Authorization', 'Basic eA==', false, ': Proxy-* is dropped'),
  one('Date', 'Mon, 01 Jan 2024 00:00:00 GMT', false, ': dropped'),
  one('DNT', '1', false, ': dropped'),
  one('Keep-Alive', 'timeout=5', false, ': dropped'),
  one('Referer', 'http://example.com/', false, ': dropped'),
  one('User-Agent', 'bot', false, ': Chromium still drops it'),
  one('X-HTTP-Method-Override', 'TRACE', false, ': it names a forbidden method, so it is dropped'),
  one('X-HTTP-Method-Override', 'PUT', true, ': a custom header naming an allowed method is kept'),
  get(
    'a dropped Cookie beside a custom header: only the custom one is listed',
    { Cookie: 'a=1', 'X-Foo': '1' },
    true,
  ),
]

const COMBINED: Scenario[] = [
  get(
    'Accept-Language set twice is judged as en, de and stays simple',
    [
      ['Accept-Language', 'en'],
      ['Accept-Language', 'de'],
    ],
    false,
  ),
  get(
    'Content-Language 64 + 64 bytes is 130 combined: preflighted',
    [
      ['Content-Language', sized('en-', 64)],
      ['Content-Language', sized('de-', 64)],
    ],
    true,
  ),
  get(
    'Range set twice is two ranges: preflighted',
    [
      ['Range', 'bytes=0-1'],
      ['Range', 'bytes=2-3'],
    ],
    true,
  ),
  get(
    'X-Foo set twice is listed once',
    [
      ['X-Foo', '1'],
      ['x-foo', '2'],
    ],
    true,
  ),
  get(
    'custom header names are listed lowercased and sorted',
    { 'X-Zeta': '1', 'x-alpha': '2', Accept: 'a' },
    true,
  ),
]

/** Every safelisted-header case, fetch and XMLHttpRequest. */
export const SAFELISTED_HEADER_CASES: readonly BrowserCorsCase[] = bothInitiators('safelisted-headers', [
  ...ACCEPT,
  ...LANGUAGE,
  ...CONTENT_TYPE,
  ...RANGE,
  ...CLIENT_HINTS,
  ...TOTAL,
  ...FORBIDDEN,
  ...COMBINED,
])
