import { reflect, route, type SequenceCall, type SequenceCase } from './sequence-kit.js'

/**
 * What fetch (the Fetch standard's `new Request(input, init)`) and XMLHttpRequest (`open()`,
 * `setRequestHeader()`) throw before any request is made (P14): each text measured in Chromium
 * 156, and nothing may reach the servers.
 */

const FETCH = "TypeError: Failed to execute 'fetch' on 'Window': "
const XHR_OPEN = "SyntaxError: Failed to execute 'open' on 'XMLHttpRequest': "
const XHR_HEADER = "SyntaxError: Failed to execute 'setRequestHeader' on 'XMLHttpRequest': "

/** [case name, the call (without url), fetch's text after the prefix, XMLHttpRequest's full text or `null` for fetch only] */
const THROWS: readonly (readonly [
  string,
  Omit<SequenceCall, 'url' | 'expected' | 'sent'>,
  string,
  string | null,
])[] = [
  [
    'a method that is not a token',
    { method: 'GE T' },
    "'GE T' is not a valid HTTP method.",
    `${XHR_OPEN}'GE T' is not a valid HTTP method.`,
  ],
  ['an empty method', { method: '' }, "'' is not a valid HTTP method.", null],
  [
    'a forbidden method in lowercase',
    { method: 'track' },
    "'track' HTTP method is unsupported.",
    "SecurityError: Failed to execute 'open' on 'XMLHttpRequest': 'track' HTTP method is unsupported.",
  ],
  [
    "mode 'no-cors' with PUT",
    { method: 'PUT', mode: 'no-cors' },
    "'PUT' is unsupported in no-cors mode.",
    null,
  ],
  [
    "mode 'no-cors' with patch, quoted as written",
    { method: 'patch', mode: 'no-cors' },
    "'patch' is unsupported in no-cors mode.",
    null,
  ],
  [
    "mode 'no-cors' with a ReadableStream body",
    { method: 'POST', mode: 'no-cors', body: 'stream' },
    'If request is made from ReadableStream, mode should be"same-origin" or "cors"',
    null,
  ],
  [
    'a GET with a body',
    { method: 'GET', body: 'string' },
    'Request with GET/HEAD method cannot have body.',
    null,
  ],
  [
    'a HEAD with a body',
    { method: 'head', body: 'string' },
    'Request with GET/HEAD method cannot have body.',
    null,
  ],
  [
    "'only-if-cached' in cors mode",
    { cache: 'only-if-cached' },
    "'only-if-cached' can be set only with 'same-origin' mode",
    null,
  ],
  [
    "'only-if-cached' in no-cors mode",
    { cache: 'only-if-cached', mode: 'no-cors' },
    "'only-if-cached' can be set only with 'same-origin' mode",
    null,
  ],
  [
    'a URL with user:password',
    { userinfo: 'u:p' },
    'Request cannot be constructed from a URL that includes credentials: {A}/x',
    null,
  ],
  [
    'a URL with a user only',
    { userinfo: 'u' },
    'Request cannot be constructed from a URL that includes credentials: {A}/x',
    null,
  ],
  [
    "mode 'navigate'",
    { mode: 'navigate' },
    "Cannot construct a Request with a RequestInit whose mode member is set as 'navigate'.",
    null,
  ],
  [
    'a header name with a space',
    { headers: { 'x a': '1' } },
    'Invalid name',
    `${XHR_HEADER}'x a' is not a valid HTTP header field name.`,
  ],
  [
    'a header name with a Latin-1 letter',
    { headers: { 'x-\u00e9': '1' } },
    'Invalid name',
    `${XHR_HEADER}'x-\u00e9' is not a valid HTTP header field name.`,
  ],
  [
    'a header value with a line feed',
    { headers: { 'x-a': 'a\nb' } },
    'Invalid value',
    `${XHR_HEADER}'a\nb' is not a valid HTTP header field value.`,
  ],
  ['a header value with NUL', { headers: { 'x-a': 'a\0b' } }, 'Invalid value', null],
  [
    'a header value beyond Latin-1',
    { headers: { 'x-a': '\u0100' } },
    "Failed to read the 'headers' property from 'RequestInit': String contains non ISO-8859-1 code point.",
    null,
  ],
  [
    'a ReadableStream body without duplex',
    { method: 'POST', body: 'stream', noDuplex: true },
    'The `duplex` member must be specified for a request with a streaming body',
    null,
  ],
]

export const CONSTRUCTOR_CASES: readonly SequenceCase[] = [
  ...THROWS.map(
    ([name, call, text, xhr]): SequenceCase => ({
      name: `new Request: ${name} throws before sending`,
      ...(xhr === null ? { fetchOnly: 'a fetch-only rule or option' } : {}),
      routes: { 'A /x': route(reflect) },
      calls: [
        {
          url: '{A}/x',
          ...call,
          expected: {
            readable: false,
            thrown: `${FETCH}${text}`,
            ...(xhr === null ? {} : { xhrThrown: xhr }),
          },
          sent: [],
        },
      ],
    }),
  ),
  {
    name: "new Request: mode 'no-cors' with post passes (the method is normalized first)",
    fetchOnly: 'XMLHttpRequest has no mode option',
    routes: { 'A /x': route({ headers: {} }) },
    calls: [
      {
        url: '{A}/x',
        method: 'post',
        mode: 'no-cors',
        expected: { readable: true, type: 'opaque' },
        sent: ['POST A/x {PAGE}'],
      },
    ],
  },
  {
    name: "new Request: mode 'same-origin' with 'only-if-cached' is allowed to its own origin",
    fetchOnly: 'XMLHttpRequest has no cache option',
    routes: { 'P /x': route({ headers: {} }) },
    calls: [
      {
        url: '{P}/x',
        cache: 'only-if-cached',
        mode: 'same-origin',
        expected: { readable: false, network: true, console: 'Failed to load resource: net::ERR_CACHE_MISS' },
        sent: [],
      },
    ],
  },
]
