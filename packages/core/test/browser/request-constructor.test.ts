import { describe, expect, it } from 'vitest'
import type { BrowserCall } from '../../src/browser/browser-call.js'
import { requestConstructorError } from '../../src/browser/request-constructor.js'

const URL_A = 'http://api.test/x'
const FETCH = "TypeError: Failed to execute 'fetch' on 'Window': "

/** Each text measured in Chromium 156 (test/browser/sequence-cases-constructor.ts runs them there). */
const ROWS: readonly (readonly [string, Partial<BrowserCall>, string | undefined])[] = [
  ['a plain GET', {}, undefined],
  [
    'a URL with credentials',
    { url: 'http://u:p@api.test/x' },
    `${FETCH}Request cannot be constructed from a URL that includes credentials: http://u:p@api.test/x`,
  ],
  ['an unparsable URL', { url: 'http://[x' }, `${FETCH}Failed to parse URL from http://[x`],
  [
    'mode navigate',
    { mode: 'navigate' },
    `${FETCH}Cannot construct a Request with a RequestInit whose mode member is set as 'navigate'.`,
  ],
  [
    'only-if-cached in cors mode',
    { cache: 'only-if-cached' },
    `${FETCH}'only-if-cached' can be set only with 'same-origin' mode`,
  ],
  ['only-if-cached in same-origin mode', { cache: 'only-if-cached', mode: 'same-origin' }, undefined],
  ['a method with a space', { method: 'GE T' }, `${FETCH}'GE T' is not a valid HTTP method.`],
  ['a forbidden method', { method: 'TRACE' }, `${FETCH}'TRACE' HTTP method is unsupported.`],
  ['no-cors PUT', { method: 'PUT', mode: 'no-cors' }, `${FETCH}'PUT' is unsupported in no-cors mode.`],
  ['no-cors post', { method: 'post', mode: 'no-cors' }, undefined],
  ['a header name with a space', { headers: { 'x a': '1' } }, `${FETCH}Invalid name`],
  ['a header value with LF inside', { headers: { 'x-a': 'a\nb' } }, `${FETCH}Invalid value`],
  ['a header value with LF at its end (trimmed)', { headers: { 'x-a': 'a\n' } }, undefined],
  [
    'a header value with U+0001 passes the constructor (the Fetch standard refuses only NUL, CR and LF)',
    { headers: { 'x-a': 'a\u0001b' } },
    undefined,
  ],
  [
    'a header value beyond Latin-1',
    { headers: { 'x-a': '\u0100' } },
    `${FETCH}Failed to read the 'headers' property from 'RequestInit': String contains non ISO-8859-1 code point.`,
  ],
  ['a GET with a body', { body: 'x' }, `${FETCH}Request with GET/HEAD method cannot have body.`],
  [
    'a stream without duplex',
    { method: 'POST', body: new ReadableStream() },
    `${FETCH}The \`duplex\` member must be specified for a request with a streaming body`,
  ],
  ['a stream with duplex', { method: 'POST', body: new ReadableStream(), duplex: 'half' }, undefined],
  [
    'XMLHttpRequest: a method with a space',
    { method: 'GE T', initiator: 'XMLHttpRequest' },
    "SyntaxError: Failed to execute 'open' on 'XMLHttpRequest': 'GE T' is not a valid HTTP method.",
  ],
  [
    'XMLHttpRequest: a URL with credentials is sent',
    { url: 'http://u:p@api.test/x', initiator: 'XMLHttpRequest' },
    undefined,
  ],
]

describe('requestConstructorError', () => {
  it.each(ROWS)('%s', (_name, call, expected) => {
    expect(requestConstructorError({ url: URL_A, ...call })).toBe(expected)
  })
})
