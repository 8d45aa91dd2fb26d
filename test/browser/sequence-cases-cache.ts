import { preflightOk, put, reflect, reflectOrigin, route, type SequenceCase } from './sequence-kit.js'

/**
 * The preflight cache by cache mode, request mode and page origin (P14), measured in Chromium
 * 156. Chromium keys an entry by the page's origin, the URL (fragment and an empty `?`
 * included), the network isolation key and the target's address space
 * (services/network/cors/preflight_cache.cc); on 127.0.0.1 every page is one site and one
 * address space, so here the origin and the URL are what tell entries apart.
 */

const cached = preflightOk({ 'access-control-max-age': '60' })
const sentBoth = (path: string, origin = '{PAGE}') => [`OPTIONS A${path} ${origin}`, `PUT A${path} ${origin}`]

export const CACHE_CASES: readonly SequenceCase[] = [
  {
    name: "cache: 'no-store' neither uses the entry nor stores the new one",
    fetchOnly: 'XMLHttpRequest has no cache option',
    routes: { 'A /x': route(reflect, cached) },
    calls: [
      { url: '{A}/x', ...put, cache: 'no-store', expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, cache: 'no-store', expected: { readable: true }, sent: sentBoth('/x') },
    ],
  },
  {
    name: "cache: 'reload' and 'no-cache' skip the entry but store the new one",
    fetchOnly: 'XMLHttpRequest has no cache option',
    routes: { 'A /r': route(reflect, cached), 'A /n': route(reflect, cached) },
    calls: [
      { url: '{A}/r', ...put, cache: 'reload', expected: { readable: true }, sent: sentBoth('/r') },
      { url: '{A}/r', ...put, expected: { readable: true }, sent: ['PUT A/r {PAGE}'] },
      { url: '{A}/r', ...put, cache: 'reload', expected: { readable: true }, sent: sentBoth('/r') },
      { url: '{A}/n', ...put, cache: 'no-cache', expected: { readable: true }, sent: sentBoth('/n') },
      { url: '{A}/n', ...put, cache: 'no-cache', expected: { readable: true }, sent: sentBoth('/n') },
      { url: '{A}/n', ...put, expected: { readable: true }, sent: ['PUT A/n {PAGE}'] },
    ],
  },
  {
    name: "cache: 'force-cache' uses the entry and stores a new one",
    fetchOnly: 'XMLHttpRequest has no cache option',
    routes: { 'A /x': route(reflect, cached) },
    calls: [
      { url: '{A}/x', ...put, cache: 'force-cache', expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, cache: 'force-cache', expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'cache: a preflight that fails the method check stores nothing',
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
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: "cache: credentials 'omit' and 'same-origin' share an entry; 'include' needs one of its own",
    fetchOnly: "XMLHttpRequest has no credentials 'omit'",
    routes: {
      'A /x': route(
        { headers: { 'access-control-allow-origin': '{PAGE}', 'access-control-allow-credentials': 'true' } },
        preflightOk({ 'access-control-allow-credentials': 'true', 'access-control-max-age': '60' }),
      ),
    },
    calls: [
      { url: '{A}/x', ...put, credentials: 'omit', expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, credentials: true, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, credentials: 'omit', expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: "cache: mode 'no-cors' sends no preflight, drops unsafe headers and gives an opaque response",
    fetchOnly: 'XMLHttpRequest has no mode option',
    routes: { 'A /x': route(reflect, cached), 'A /plain': route({ headers: {} }) },
    calls: [
      {
        url: '{A}/x',
        method: 'POST',
        headers: { 'X-Foo': '1', 'Content-Type': 'application/json' },
        body: 'string',
        mode: 'no-cors',
        expected: { readable: true, type: 'opaque', headers: [] },
        sent: ['POST A/x {PAGE}'],
      },
      // Nothing was cached by the no-cors call: the CORS one is preflighted.
      { url: '{A}/x', ...put, expected: { readable: true, type: 'cors' }, sent: sentBoth('/x') },
      {
        url: '{A}/plain',
        headers: { 'X-Foo': '1' },
        mode: 'no-cors',
        expected: { readable: true, type: 'opaque', headers: [] },
        sent: ['GET A/plain -'],
      },
    ],
  },
  {
    name: "cache: mode 'no-cors' with redirect 'manual' fails before sending",
    fetchOnly: 'XMLHttpRequest has no mode option',
    routes: { 'A /x': route(reflect) },
    calls: [
      {
        url: '{A}/x',
        mode: 'no-cors',
        redirect: 'manual',
        expected: {
          readable: false,
          network: true,
          console:
            'Fetch API cannot load {A}/x. Request mode is "no-cors" but the redirect mode is not "follow".',
        },
        sent: [],
      },
    ],
  },
  {
    name: "cache: mode 'same-origin' fails before sending to another origin, and is a plain request at home",
    fetchOnly: 'XMLHttpRequest has no mode option',
    routes: { 'A /x': route(reflect, cached), 'P /x': route({ headers: {} }) },
    calls: [
      {
        url: '{A}/x',
        ...put,
        mode: 'same-origin',
        expected: {
          readable: false,
          network: true,
          console:
            'Fetch API cannot load {A}/x. Request mode is "same-origin" but the URL\'s origin is not same as the request origin {PAGE}.',
        },
        sent: [],
      },
      {
        url: '{P}/x',
        ...put,
        mode: 'same-origin',
        expected: { readable: true, type: 'basic' },
        sent: ['PUT P/x {PAGE}'],
      },
    ],
  },
  {
    name: "cache: mode 'same-origin' redirected to another origin fails there",
    fetchOnly: 'XMLHttpRequest has no mode option',
    routes: {
      'P /so': route({ status: 302, headers: { location: '{A}/x' } }),
      'A /x': route(reflect),
    },
    calls: [
      {
        url: '{P}/so',
        mode: 'same-origin',
        expected: {
          readable: false,
          network: true,
          console:
            'Unsafe attempt to load URL {A}/x from frame with URL {PAGE}/. Domains, protocols and ports must match.\n',
        },
        sent: ['GET P/so -'],
      },
    ],
  },
  {
    name: 'cache: a sandboxed page (Origin: null) is preflighted at every call, Max-Age or not',
    routes: { 'A /x': route(reflectOrigin, cached) },
    calls: [
      { url: '{A}/x', ...put, page: 'sandbox', expected: { readable: true }, sent: sentBoth('/x', 'null') },
      { url: '{A}/x', ...put, page: 'sandbox', expected: { readable: true }, sent: sentBoth('/x', 'null') },
      { url: '{A}/x', page: 'sandbox', expected: { readable: true }, sent: ['GET A/x null'] },
    ],
  },
  {
    name: 'cache: a sandboxed page is answered for Origin null, not for its URL origin',
    routes: { 'A /x': route(reflect, preflightOk()) },
    calls: [
      {
        url: '{A}/x',
        page: 'sandbox',
        expected: {
          readable: false,
          at: '{A}/x',
          text: "The 'Access-Control-Allow-Origin' header has a value '{PAGE}' that is not equal to the supplied origin. Have the server send the header with a valid value.",
        },
        sent: ['GET A/x null'],
      },
    ],
  },
  {
    name: 'cache: two page origins keep separate entries for one URL',
    routes: { 'A /x': route(reflectOrigin, cached) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, page: 'B', expected: { readable: true }, sent: sentBoth('/x', '{PAGE_B}') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, page: 'B', expected: { readable: true }, sent: ['PUT A/x {PAGE_B}'] },
    ],
  },
  {
    name: 'cache: the key is the URL with its fragment',
    routes: { 'A /x': route(reflect, cached) },
    calls: [
      { url: '{A}/x#f1', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x#f1', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x#f2', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
    ],
  },
  {
    name: 'cache: an empty query (?) is another URL',
    routes: { 'A /x': route(reflect, cached), 'A /x?': route(reflect, cached) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x?', ...put, expected: { readable: true }, sent: sentBoth('/x?') },
      { url: '{A}/x?', ...put, expected: { readable: true }, sent: ['PUT A/x? {PAGE}'] },
    ],
  },
  {
    name: 'cache: an entry serves a failing actual response from another page origin no better',
    routes: { 'A /x': route(reflect, cached) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      {
        url: '{A}/x',
        ...put,
        page: 'B',
        expected: {
          readable: false,
          at: '{A}/x',
          text: "The 'Access-Control-Allow-Origin' header has a value '{PAGE}' that is not equal to the supplied origin. Have the server send the header with a valid value.",
        },
        sent: sentBoth('/x', '{PAGE_B}'),
      },
    ],
  },
]

/** The network isolation key: the same page origin framed by another site's top-level page keeps entries of its own. */
export const PARTITION_CASES: readonly SequenceCase[] = [
  {
    name: 'cache: a page framed by another site (localhost) does not share the top-level page’s entries',
    routes: { 'A /x': route(reflect, cached) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, page: 'framed', expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, page: 'framed', expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: ['PUT A/x {PAGE}'] },
    ],
  },
  {
    name: 'cache: a page framed by another origin of the same site (another port) shares the entries',
    routes: { 'A /x': route(reflect, cached) },
    calls: [
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      {
        url: '{A}/x',
        ...put,
        page: 'framed-same-site',
        expected: { readable: true },
        sent: ['PUT A/x {PAGE}'],
      },
      { url: '{A}/x', ...put, page: 'framed', expected: { readable: true }, sent: sentBoth('/x') },
    ],
  },
  {
    name: 'cache: pages of two origins on one site (127.0.0.1) are one partition, told apart by origin only',
    routes: { 'A /x': route(reflectOrigin, cached) },
    calls: [
      { url: '{A}/x', ...put, page: 'B', expected: { readable: true }, sent: sentBoth('/x', '{PAGE_B}') },
      { url: '{A}/x', ...put, page: 'framed', expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, expected: { readable: true }, sent: sentBoth('/x') },
      { url: '{A}/x', ...put, page: 'B', expected: { readable: true }, sent: ['PUT A/x {PAGE_B}'] },
    ],
  },
]
