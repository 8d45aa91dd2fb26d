import { CACHE_CASES, PARTITION_CASES } from './sequence-cases-cache.js'
import { CONSTRUCTOR_CASES } from './sequence-cases-constructor.js'
import { HEADER_LIST_CASES } from './sequence-cases-header-lists.js'
import { LOCATION_CASES } from './sequence-cases-redirects.js'
import { STREAM_CASES } from './sequence-cases-streams.js'
import { USERINFO_CASES } from './sequence-cases-userinfo.js'
import {
  NO_ALLOW_ORIGIN,
  preflightOk,
  put,
  reflect,
  reflectOrigin,
  route,
  type SequenceCall,
  type SequenceCase,
  star,
} from './sequence-kit.js'

export type { BodyKind, CallOutcome, SequenceCall, SequenceCase } from './sequence-kit.js'

/**
 * Sequences of calls that only a stateful browser explains: the preflight cache, redirects of
 * the actual request, and bodies. Each case runs in headless Chromium and through
 * `createBrowserModel` against the same servers (test/browser/browser-sequences.test.ts), and
 * each must match this table on its own. `{A}` and `{B}` are two target origins, `{P}` the
 * page's own origin (each with the run's path prefix), `{PAGE}` the page's bare origin.
 */

const BASE_CASES: readonly SequenceCase[] = [
  {
    name: 'cache: an identical call within 5 s sends no preflight',
    routes: { 'A /x': route(reflect, preflightOk()) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'cache: Max-Age 1 expires after a second',
    routes: { 'A /x': route(reflect, preflightOk({ 'access-control-max-age': '1' })) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      {
        url: '{A}/x',
        ...put,
        waitBefore: 1200,
        expected: { readable: true },
        sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'],
      },
    ],
  },
  {
    name: 'cache: Max-Age 0 and -1 cache nothing',
    routes: {
      'A /zero': route(reflect, preflightOk({ 'access-control-max-age': '0' })),
      'A /minus': route(reflect, preflightOk({ 'access-control-max-age': '-1' })),
    },
    calls: [
      {
        url: '{A}/zero',
        ...put,
        expected: { readable: true },
        sent: ['OPTIONS A/zero {PAGE}', 'PUT A/zero {PAGE}'],
      },
      {
        url: '{A}/zero',
        ...put,
        expected: { readable: true },
        sent: ['OPTIONS A/zero {PAGE}', 'PUT A/zero {PAGE}'],
      },
      {
        url: '{A}/minus',
        ...put,
        expected: { readable: true },
        sent: ['OPTIONS A/minus {PAGE}', 'PUT A/minus {PAGE}'],
      },
      {
        url: '{A}/minus',
        ...put,
        expected: { readable: true },
        sent: ['OPTIONS A/minus {PAGE}', 'PUT A/minus {PAGE}'],
      },
    ],
  },
  {
    name: 'cache: an unparsable Max-Age (10.5) is the 5 s default',
    routes: { 'A /x': route(reflect, preflightOk({ 'access-control-max-age': '10.5' })) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'cache: the key is the exact URL (another query is another preflight)',
    routes: { 'A /x': route(reflect, preflightOk()), 'A /x?v=2': route(reflect, preflightOk()) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      {
        url: '{A}/x?v=2',
        ...put,
        expected: { readable: true },
        sent: ['OPTIONS A/x?v=2 {PAGE}', 'PUT A/x?v=2 {PAGE}'],
      },
    ],
  },
  {
    name: 'cache: a method the entry lacks is preflighted, and the failed lookup evicts the entry',
    routes: {
      'A /x': route(reflect, (request) => ({
        status: 204,
        headers: {
          'access-control-allow-origin': request.origin,
          'access-control-allow-methods': 'PUT',
          'access-control-allow-headers': 'x-foo',
          'access-control-max-age': '60',
        },
      })),
    },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      {
        url: '{A}/x',
        method: 'DELETE',
        headers: { 'X-Foo': '1' },
        expected: {
          readable: false,
          at: '{A}/x',
          text: 'Method DELETE is not allowed by Access-Control-Allow-Methods in preflight response.',
        },
        sent: ['OPTIONS A/x {PAGE}'],
      },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'cache: an entry made without credentials does not serve a credentialed call; a credentialed one serves all',
    routes: {
      'A /x': route(
        { headers: { 'access-control-allow-origin': '{PAGE}', 'access-control-allow-credentials': 'true' } },
        preflightOk({ 'access-control-allow-credentials': 'true', 'access-control-max-age': '60' }),
      ),
    },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      {
        url: '{A}/x',
        ...put,
        credentials: true,
        expected: { readable: true },
        sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'],
      },
      { url: '{A}/x', ...put, credentials: true, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'cache: a failing actual response leaves the entry',
    routes: {
      'A /x': route({ headers: {} }, preflightOk({ 'access-control-max-age': '60' })),
    },
    calls: [
      {
        url: '{A}/x',
        ...put,
        expected: { readable: false, at: '{A}/x', text: NO_ALLOW_ORIGIN },
        sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'],
      },
      {
        url: '{A}/x',
        ...put,
        expected: { readable: false, at: '{A}/x', text: NO_ALLOW_ORIGIN },
        sent: ['PUT A/x {PAGE}'],
      },
    ],
  },
  {
    name: "cache: fetch's cache: 'no-store' sends the preflight anyway",
    fetchOnly: 'XMLHttpRequest has no cache option',
    routes: { 'A /x': route(reflect, preflightOk({ 'access-control-max-age': '60' })) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'] },
      {
        url: '{A}/x',
        ...put,
        cache: 'no-store',
        expected: { readable: true },
        sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}'],
      },
      { url: '{A}/x', ...put, cache: 'force-cache', expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'redirect: a same-origin hop at the target, both answers allowing, is readable',
    routes: {
      'A /old': route({ status: 301, headers: { location: '{A}/new', 'access-control-allow-origin': '*' } }),
      'A /new': route(star),
    },
    calls: [{ url: '{A}/old', expected: { readable: true }, sent: ['GET A/old {PAGE}', 'GET A/new {PAGE}'] }],
  },
  {
    name: 'redirect: the redirect answer itself needs Allow-Origin',
    routes: {
      'A /old': route({ status: 302, headers: { location: '{A}/new' } }),
      'A /new': route(star),
    },
    calls: [
      {
        url: '{A}/old',
        expected: { readable: false, at: '{A}/old', text: NO_ALLOW_ORIGIN },
        sent: ['GET A/old {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect: a later hop that fails is named with "(redirected from …)"',
    routes: {
      'A /old': route({ status: 302, headers: { location: '{A}/new', 'access-control-allow-origin': '*' } }),
      'A /new': route({ headers: {} }),
    },
    calls: [
      {
        url: '{A}/old',
        expected: { readable: false, at: '{A}/new', from: '{A}/old', text: NO_ALLOW_ORIGIN },
        sent: ['GET A/old {PAGE}', 'GET A/new {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect: from a cross-origin URL to another origin the Origin is null, and the page origin no longer matches',
    routes: {
      'A /x': route({ status: 307, headers: { location: '{B}/x', 'access-control-allow-origin': '{PAGE}' } }),
      'B /x': route(reflectOrigin),
    },
    calls: [
      {
        url: '{A}/x',
        expected: { readable: true },
        sent: ['GET A/x {PAGE}', 'GET B/x null'],
      },
    ],
  },
  {
    name: 'redirect: a tainted request answered with the page origin is blocked',
    routes: {
      'A /x': route({ status: 302, headers: { location: '{B}/x', 'access-control-allow-origin': '*' } }),
      'B /x': route(reflect),
    },
    calls: [
      {
        url: '{A}/x',
        expected: {
          readable: false,
          at: '{B}/x',
          from: '{A}/x',
          text: "The 'Access-Control-Allow-Origin' header has a value '{PAGE}' that is not equal to the supplied origin. Have the server send the header with a valid value.",
        },
        sent: ['GET A/x {PAGE}', 'GET B/x null'],
      },
    ],
  },
  {
    name: 'redirect: a tainted request passes with Allow-Origin *',
    routes: {
      'A /x': route({ status: 302, headers: { location: '{B}/x', 'access-control-allow-origin': '*' } }),
      'B /x': route(star),
    },
    calls: [{ url: '{A}/x', expected: { readable: true }, sent: ['GET A/x {PAGE}', 'GET B/x null'] }],
  },
  {
    name: "redirect: a same-origin call sent to another origin keeps the page's Origin and needs CORS there",
    routes: {
      'P /api/x': route({ status: 302, headers: { location: '{A}/x' } }),
      'A /x': route({ headers: {} }),
    },
    calls: [
      {
        url: '{P}/api/x',
        expected: { readable: false, at: '{A}/x', from: '{P}/api/x', text: NO_ALLOW_ORIGIN },
        sent: ['GET P/api/x -', 'GET A/x {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect: a preflighted PUT sent on by 307 to another origin is preflighted there with Origin null',
    routes: {
      'A /x': route(
        { status: 307, headers: { location: '{B}/x', 'access-control-allow-origin': '{PAGE}' } },
        preflightOk(),
      ),
      'B /x': route(reflectOrigin, preflightOk()),
    },
    calls: [
      {
        url: '{A}/x',
        ...put,
        expected: { readable: true },
        sent: ['OPTIONS A/x {PAGE}', 'PUT A/x {PAGE}', 'OPTIONS B/x null', 'PUT B/x null'],
      },
    ],
  },
  {
    name: 'redirect: 303 turns a JSON POST into a GET without Content-Type: no preflight at the next hop',
    routes: {
      'A /form': route(
        { status: 303, headers: { location: '{A}/done', 'access-control-allow-origin': '{PAGE}' } },
        preflightOk(),
      ),
      'A /done': route(reflect),
    },
    calls: [
      {
        url: '{A}/form',
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: 'string',
        expected: { readable: true },
        sent: ['OPTIONS A/form {PAGE}', 'POST A/form {PAGE}', 'GET A/done {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect: a Location with user:password is refused',
    routes: {
      'A /x': route({
        status: 302,
        headers: { location: 'http://user:pass@127.0.0.1:9/x', 'access-control-allow-origin': '*' },
      }),
    },
    calls: [
      {
        url: '{A}/x',
        expected: {
          readable: false,
          at: '{A}/x',
          // Chromium quotes an empty location here.
          text: "Redirect location '' contains a username and password, which is disallowed for cross-origin requests.",
        },
        sent: ['GET A/x {PAGE}'],
      },
    ],
  },
  {
    name: "redirect: 'manual' gives the script an opaque redirect without following it",
    fetchOnly: 'XMLHttpRequest has no redirect option',
    routes: {
      'A /x': route({ status: 302, headers: { location: '{A}/y', 'access-control-allow-origin': '*' } }),
    },
    calls: [{ url: '{A}/x', redirect: 'manual', expected: { readable: true }, sent: ['GET A/x {PAGE}'] }],
  },
  {
    name: "redirect: 'error' fails the call at the first redirect",
    fetchOnly: 'XMLHttpRequest has no redirect option',
    routes: {
      'A /x': route({ status: 302, headers: { location: '{A}/y', 'access-control-allow-origin': '*' } }),
    },
    calls: [
      {
        url: '{A}/x',
        redirect: 'error',
        expected: { readable: false, network: true, console: 'Failed to load resource: net::ERR_FAILED' },
        sent: ['GET A/x {PAGE}'],
      },
    ],
  },
  {
    name: 'body: a Blob typed application/json is preflighted, its type sent as Content-Type',
    routes: { 'A /x': route(reflect, preflightOk()) },
    calls: [
      {
        url: '{A}/x',
        method: 'POST',
        body: 'blob-json',
        expected: { readable: true },
        sent: ['OPTIONS A/x {PAGE}', 'POST A/x {PAGE}'],
      },
    ],
  },
  {
    name: 'body: a text/plain Blob, an untyped Blob, a string, URLSearchParams and FormData are not preflighted',
    routes: { 'A /x': route(reflect) },
    calls: (['blob-text', 'blob-untyped', 'string', 'params', 'form'] as const).map((body) => ({
      url: '{A}/x',
      method: 'POST',
      body,
      expected: { readable: true },
      sent: ['POST A/x {PAGE}'],
    })),
  },
  {
    name: 'redirect: a tainted preflight is never cached',
    routes: {
      'A /x': route(
        { status: 307, headers: { location: '{B}/x', 'access-control-allow-origin': '{PAGE}' } },
        preflightOk(),
      ),
      'B /x': route(reflectOrigin, preflightOk({ 'access-control-max-age': '60' })),
    },
    calls: [0, 1]
      .map(
        (): SequenceCall => ({
          url: '{A}/x',
          ...put,
          expected: { readable: true },
          sent: ['PUT A/x {PAGE}', 'OPTIONS B/x null', 'PUT B/x null'],
        }),
      )
      .map((call, index) => (index === 0 ? { ...call, sent: ['OPTIONS A/x {PAGE}', ...call.sent] } : call)),
  },
  {
    name: 'redirect: a redirect to ftp: is refused by CORS, naming the ftp URL',
    routes: {
      'A /x': route({
        status: 302,
        headers: { location: 'ftp://127.0.0.1/x', 'access-control-allow-origin': '*' },
      }),
    },
    calls: [
      {
        url: '{A}/x',
        expected: {
          readable: false,
          at: 'ftp://127.0.0.1/x',
          from: '{A}/x',
          text: 'Cross origin requests are only supported for protocol schemes: chrome, chrome-experimental-site-token-provider, chrome-extension, chrome-untrusted, data, http, https, isolated-app.',
        },
        sent: ['GET A/x {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect: a redirect to data: fails without CORS text',
    routes: {
      'A /x': route({
        status: 302,
        headers: { location: 'data:text/plain,hi', 'access-control-allow-origin': '*' },
      }),
    },
    calls: [
      {
        url: '{A}/x',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_UNSAFE_REDIRECT',
        },
        sent: ['GET A/x {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect: 20 redirects are followed, the 21st fails',
    routes: Object.fromEntries([
      ...Array.from({ length: 20 }, (_, i) => [
        `A /ok${i}`,
        route({ status: 302, headers: { location: `{A}/ok${i + 1}`, 'access-control-allow-origin': '*' } }),
      ]),
      ['A /ok20', route(star)],
      ...Array.from({ length: 21 }, (_, i) => [
        `A /no${i}`,
        route({ status: 302, headers: { location: `{A}/no${i + 1}`, 'access-control-allow-origin': '*' } }),
      ]),
    ]),
    calls: [
      {
        url: '{A}/ok0',
        expected: { readable: true },
        sent: Array.from({ length: 21 }, (_, i) => `GET A/ok${i} {PAGE}`),
      },
      {
        url: '{A}/no0',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_TOO_MANY_REDIRECTS',
        },
        sent: Array.from({ length: 21 }, (_, i) => `GET A/no${i} {PAGE}`),
      },
    ],
  },
  {
    name: 'body: a ReadableStream is preflighted, then fails over HTTP/1.1 without reaching the server',
    fetchOnly: 'XMLHttpRequest cannot send a stream',
    routes: { 'A /x': route(reflect, preflightOk()), 'P /x': route({}) },
    calls: [
      {
        url: '{A}/x',
        method: 'POST',
        body: 'stream',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_ALPN_NEGOTIATION_FAILED',
        },
        sent: ['OPTIONS A/x {PAGE}'],
      },
      {
        url: '{P}/x',
        method: 'POST',
        body: 'stream',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_ALPN_NEGOTIATION_FAILED',
        },
        sent: [],
      },
    ],
  },
]

/** Every sequence: the base cases above, then the classes, each in its own file. */
export const SEQUENCE_CASES: readonly SequenceCase[] = [
  ...BASE_CASES,
  ...CACHE_CASES,
  ...PARTITION_CASES,
  ...HEADER_LIST_CASES,
  ...LOCATION_CASES,
  ...CONSTRUCTOR_CASES,
  ...STREAM_CASES,
  ...USERINFO_CASES,
]
