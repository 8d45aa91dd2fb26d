import { put, reflect, route, type SequenceCall, type SequenceCase } from './sequence-kit.js'
import type { Route } from './sequence-server.js'

/**
 * How Chromium 156 parses each CORS response header (P14), one case per value, measured:
 * Allow-Methods, Allow-Headers and Expose-Headers are `#token` lists (items trimmed, empty items
 * skipped, one non-token item makes the whole list unparsable; two header lines arrive joined
 * by ", "); Allow-Origin and Allow-Credentials are compared as whole trimmed strings; Max-Age is
 * one integer. A value written as an array is sent as that many header lines.
 */

type Value = string | readonly string[]

const CANNOT_PARSE = (name: string) =>
  `Cannot parse Access-Control-Allow-${name} response header field in preflight response.`

/** A preflight answer allowing the page, with `name` set to `value` and the other list given. */
function preflightWith(headers: Record<string, Value>): Route {
  return () => ({ status: 204, headers: { 'access-control-allow-origin': '{PAGE}', ...headers } })
}

const okPut: SequenceCall['expected'] = { readable: true }
const putSent = ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}']

/** [value of Access-Control-Allow-Methods, what a PUT with X-Foo gets] */
const ALLOW_METHODS: readonly (readonly [Value, 'ok' | 'unparsable' | 'not-allowed'])[] = [
  [' PUT ', 'ok'],
  ['PUT,', 'ok'],
  [',PUT', 'ok'],
  ['PUT,,GET', 'ok'],
  ['GET , PUT', 'ok'],
  ['PUT,\tGET', 'ok'],
  [['GET', 'PUT'], 'ok'],
  [['PUT', ''], 'ok'],
  ['PUT, "GET"', 'unparsable'],
  ['"PUT"', 'unparsable'],
  ['PUT GET', 'unparsable'],
  ['PUT;q=1', 'unparsable'],
  ['PUT/1', 'unparsable'],
  ['PU\u00e9T', 'unparsable'],
  ['put', 'not-allowed'],
  ['', 'not-allowed'],
  [',', 'not-allowed'],
]

/** [value of Access-Control-Allow-Headers, what a PUT with X-Foo gets] */
const ALLOW_HEADERS: readonly (readonly [Value, 'ok' | 'unparsable' | 'not-allowed'])[] = [
  [' x-foo ', 'ok'],
  ['x-foo,', 'ok'],
  [',x-foo', 'ok'],
  ['x-a,,x-foo', 'ok'],
  ['X-FOO', 'ok'],
  ['x-a,\tx-foo', 'ok'],
  [['x-a', 'x-foo'], 'ok'],
  [['x-foo', ''], 'ok'],
  ['x-foo, "x-a"', 'unparsable'],
  ['"x-foo"', 'unparsable'],
  ['x-foo x-a', 'unparsable'],
  ['x-foo;a', 'unparsable'],
  ['x-fo\u00e9', 'unparsable'],
  ['', 'not-allowed'],
  [',', 'not-allowed'],
]

/** [value of Access-Control-Expose-Headers on an answer carrying X-A and X-B, the names the script reads] */
const EXPOSE_HEADERS: readonly (readonly [Value, readonly string[]])[] = [
  [' x-a ', ['x-a']],
  ['x-a,', ['x-a']],
  [',x-a', ['x-a']],
  ['x-b,,x-a', ['x-a', 'x-b']],
  ['X-A', ['x-a']],
  [
    ['x-b', 'x-a'],
    ['x-a', 'x-b'],
  ],
  [['x-a', ''], ['x-a']],
  ['x-a, "x-b"', []],
  ['"x-a"', []],
  ['x-a x-b', []],
  ['x-a;b', []],
  [['x-a', 'x b'], []],
]

/** [value of Access-Control-Allow-Origin, the text of the block or `ok`] (`{PAGE}` is the page's origin) */
const ALLOW_ORIGIN: readonly (readonly [Value, string])[] = [
  [' {PAGE} ', 'ok'],
  ['\t{PAGE}', 'ok'],
  [' * ', 'ok'],
  [
    ['{PAGE}', '{PAGE}'],
    "The 'Access-Control-Allow-Origin' header contains multiple values '{PAGE}, {PAGE}', but only one is allowed. Have the server send the header with a valid value.",
  ],
  [
    ['*', '*'],
    "The 'Access-Control-Allow-Origin' header contains multiple values '*, *', but only one is allowed. Have the server send the header with a valid value.",
  ],
  [
    '{PAGE}/',
    "The 'Access-Control-Allow-Origin' header has a value '{PAGE}/' that is not equal to the supplied origin. Have the server send the header with a valid value.",
  ],
  [
    '"{PAGE}"',
    "The 'Access-Control-Allow-Origin' header contains the invalid value '\"{PAGE}\"'. Have the server send the header with a valid value.",
  ],
  [
    '',
    "The 'Access-Control-Allow-Origin' header contains the invalid value ''. Have the server send the header with a valid value.",
  ],
]

/** [value of Access-Control-Allow-Credentials for a credentialed GET, the quoted value of the block or `ok`] */
const ALLOW_CREDENTIALS: readonly (readonly [Value, string])[] = [
  [' true ', 'ok'],
  ['TRUE', 'TRUE'],
  [['true', 'true'], 'true, true'],
  ['true,', 'true,'],
  ['"true"', '"true"'],
]

/** [value of Access-Control-Max-Age, whether a second PUT right after the first finds the entry] */
const MAX_AGE: readonly (readonly [Value, boolean])[] = [
  [' 0 ', false],
  ['00', false],
  ['-0', false],
  [['0', '0'], true],
  ['0.0', true],
  ['0x0', true],
  ['0 0', true],
  ['+0', false],
]

const show = (value: Value) => JSON.stringify(value)

function listCase(name: 'Methods' | 'Headers', value: Value, outcome: string): SequenceCase {
  const other: Record<string, Value> =
    name === 'Methods'
      ? { 'access-control-allow-headers': 'x-foo' }
      : { 'access-control-allow-methods': 'PUT' }
  const expected: SequenceCall['expected'] =
    outcome === 'ok'
      ? okPut
      : {
          readable: false,
          at: '{A}/x',
          text:
            outcome === 'unparsable'
              ? CANNOT_PARSE(name)
              : name === 'Methods'
                ? 'Method PUT is not allowed by Access-Control-Allow-Methods in preflight response.'
                : 'Request header field x-foo is not allowed by Access-Control-Allow-Headers in preflight response.',
        }
  return {
    name: `header list: Allow-${name} ${show(value)} is ${outcome}`,
    routes: {
      'A /x': route(
        reflect,
        preflightWith({ [`access-control-allow-${name.toLowerCase()}`]: value, ...other }),
      ),
    },
    calls: [{ url: '{A}/x', ...put, expected, sent: outcome === 'ok' ? putSent : ['OPTIONS A/x {PAGE}'] }],
  }
}

export const HEADER_LIST_CASES: readonly SequenceCase[] = [
  ...ALLOW_METHODS.map(([value, outcome]) => listCase('Methods', value, outcome)),
  ...ALLOW_HEADERS.map(([value, outcome]) => listCase('Headers', value, outcome)),
  ...EXPOSE_HEADERS.map(
    ([value, names]): SequenceCase => ({
      name: `header list: Expose-Headers ${show(value)} exposes [${names.join(', ')}]`,
      routes: {
        'A /x': route({
          headers: {
            'access-control-allow-origin': '{PAGE}',
            'x-a': '1',
            'x-b': '1',
            'access-control-expose-headers': value,
          },
        }),
      },
      calls: [{ url: '{A}/x', expected: { readable: true, headers: names }, sent: ['GET A/x {PAGE}'] }],
    }),
  ),
  ...ALLOW_ORIGIN.map(
    ([value, text]): SequenceCase => ({
      name: `header list: Allow-Origin ${show(value)} is ${text === 'ok' ? 'ok' : 'refused'}`,
      routes: { 'A /x': route({ headers: { 'access-control-allow-origin': value } }) },
      calls: [
        {
          url: '{A}/x',
          expected: text === 'ok' ? { readable: true } : { readable: false, at: '{A}/x', text },
          sent: ['GET A/x {PAGE}'],
        },
      ],
    }),
  ),
  ...ALLOW_CREDENTIALS.map(
    ([value, quoted]): SequenceCase => ({
      name: `header list: Allow-Credentials ${show(value)} is ${quoted === 'ok' ? 'ok' : 'refused'}`,
      routes: {
        'A /x': route({
          headers: { 'access-control-allow-origin': '{PAGE}', 'access-control-allow-credentials': value },
        }),
      },
      calls: [
        {
          url: '{A}/x',
          credentials: true,
          expected:
            quoted === 'ok'
              ? { readable: true }
              : {
                  readable: false,
                  at: '{A}/x',
                  text: `The value of the 'Access-Control-Allow-Credentials' header in the response is '${quoted}' which must be 'true' when the request's credentials mode is 'include'.`,
                },
          sent: ['GET A/x {PAGE}'],
        },
      ],
    }),
  ),
  ...MAX_AGE.map(
    ([value, kept]): SequenceCase => ({
      name: `header list: Max-Age ${show(value)} ${kept ? 'is unparsable: the 5 s default keeps the entry' : 'is 0: nothing is kept'}`,
      routes: {
        'A /x': route(
          reflect,
          preflightWith({
            'access-control-allow-methods': 'PUT',
            'access-control-allow-headers': 'x-foo',
            'access-control-max-age': value,
          }),
        ),
      },
      calls: [
        { url: '{A}/x', ...put, expected: okPut, sent: putSent },
        { url: '{A}/x', ...put, expected: okPut, sent: kept ? ['PUT A/x {PAGE}'] : putSent },
      ],
    }),
  ),
]
