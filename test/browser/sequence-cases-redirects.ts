import { NO_ALLOW_ORIGIN, reflect, route, type SequenceCase } from './sequence-kit.js'

/**
 * How a redirect's `Location` bytes become the next URL (P14), measured in Chromium 156: each
 * case redirects from `{A}/d/r` and names where the request went (`sent`) or, where only a
 * message can show it (the fragment is never sent), the URL Chromium names when the next hop
 * is refused for lack of Allow-Origin.
 */

/** Bytes of a UTF-8 string as a Node header value writes them (one char per byte). */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

const redirect = (location: string) =>
  route({ status: 302, headers: { 'access-control-allow-origin': '{PAGE}', location } })
const refused = route({ headers: {} })

/** [case name, Location, the path the second hop asks for (below the run prefix)] */
const FOLLOWED: readonly (readonly [string, string, string])[] = [
  ['a relative path resolves against the current URL', 't', '/d/t'],
  ['dot-segments are resolved', '../t', '/t'],
  ['a query alone keeps the path', '?q=1', '/d/r?q=1'],
  ['spaces around the value are trimmed', '  t  ', '/d/t'],
  ['a space inside is percent-encoded', 'a b', '/d/a%20b'],
  ['a backslash is a slash', 'x\\y', '/d/x/y'],
  ['UTF-8 bytes are percent-encoded as UTF-8', utf8Bytes('é'), '/d/%C3%A9'],
  ['UTF-8 bytes in the query too', utf8Bytes('t?ä=ö'), '/d/t?%C3%A4=%C3%B6'],
  ['http:t is relative to an http URL', 'http:t', '/d/t'],
]

export const LOCATION_CASES: readonly SequenceCase[] = [
  ...FOLLOWED.map(
    ([name, location, path]): SequenceCase => ({
      name: `redirect Location: ${name}`,
      routes: { 'A /d/r': redirect(location), [`A ${path}`]: route(reflect) },
      calls: [
        { url: '{A}/d/r', expected: { readable: true }, sent: ['GET A/d/r {PAGE}', `GET A${path} {PAGE}`] },
      ],
    }),
  ),
  {
    name: "redirect Location: without a fragment, the call's fragment is carried over",
    routes: { 'A /d/r': redirect('t'), 'A /d/t': refused },
    calls: [
      {
        url: '{A}/d/r#top',
        expected: { readable: false, at: '{A}/d/t#top', from: '{A}/d/r#top', text: NO_ALLOW_ORIGIN },
        sent: ['GET A/d/r {PAGE}', 'GET A/d/t {PAGE}'],
      },
    ],
  },
  {
    name: "redirect Location: a fragment of its own replaces the call's",
    routes: { 'A /d/r': redirect('t#k'), 'A /d/t': refused },
    calls: [
      {
        url: '{A}/d/r#top',
        expected: { readable: false, at: '{A}/d/t#k', from: '{A}/d/r#top', text: NO_ALLOW_ORIGIN },
        sent: ['GET A/d/r {PAGE}', 'GET A/d/t {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect Location: a fragment through two hops, the second without one',
    routes: { 'A /d/r': redirect('s#k'), 'A /d/s': redirect('t'), 'A /d/t': refused },
    calls: [
      {
        url: '{A}/d/r',
        expected: { readable: false, at: '{A}/d/t#k', from: '{A}/d/r', text: NO_ALLOW_ORIGIN },
        sent: ['GET A/d/r {PAGE}', 'GET A/d/s {PAGE}', 'GET A/d/t {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect Location: the first URL keeps its fragment in the message',
    routes: { 'A /d/t': refused },
    calls: [
      {
        url: '{A}/d/t#top',
        expected: { readable: false, at: '{A}/d/t#top', text: NO_ALLOW_ORIGIN },
        sent: ['GET A/d/t {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect Location: a scheme-relative URL to another origin (tainted: Origin null there)',
    routes: {
      'A /d/r': redirect('{//B}/t'),
      'B /t': route((request) => ({ headers: { 'access-control-allow-origin': request.origin } })),
    },
    calls: [{ url: '{A}/d/r', expected: { readable: true }, sent: ['GET A/d/r {PAGE}', 'GET B/t null'] }],
  },
  {
    name: 'redirect Location: a byte that is not UTF-8 is percent-encoded as it is',
    routes: { 'A /d/r': redirect('\u00e9'), 'A /d/%E9': route(reflect) },
    calls: [
      { url: '{A}/d/r', expected: { readable: true }, sent: ['GET A/d/r {PAGE}', 'GET A/d/%E9 {PAGE}'] },
    ],
  },
  {
    name: 'redirect Location: an empty Location is no redirect, the script reads the 302',
    routes: { 'A /d/r': redirect('') },
    calls: [{ url: '{A}/d/r', expected: { readable: true, status: 302 }, sent: ['GET A/d/r {PAGE}'] }],
  },
  {
    name: 'redirect Location: two different Location lines fail the call',
    routes: {
      'A /d/r': route({
        status: 302,
        headers: { 'access-control-allow-origin': '{PAGE}', location: ['t', 's'] },
      }),
    },
    calls: [
      {
        url: '{A}/d/r',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION',
        },
        sent: ['GET A/d/r {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect Location: the same Location twice is followed',
    routes: {
      'A /d/r': route({
        status: 302,
        headers: { 'access-control-allow-origin': '{PAGE}', location: ['t', 't'] },
      }),
      'A /d/t': route(reflect),
    },
    calls: [{ url: '{A}/d/r', expected: { readable: true }, sent: ['GET A/d/r {PAGE}', 'GET A/d/t {PAGE}'] }],
  },
  {
    name: 'redirect Location: two different Location lines on a 200 fail the call too',
    routes: {
      'A /d/r': route({ headers: { 'access-control-allow-origin': '{PAGE}', location: ['t', 's'] } }),
    },
    calls: [
      {
        url: '{A}/d/r',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION',
        },
        sent: ['GET A/d/r {PAGE}'],
      },
    ],
  },
  {
    name: 'redirect Location: an unparsable URL fails the call without CORS text',
    routes: { 'A /d/r': redirect('http://[bad') },
    calls: [
      {
        url: '{A}/d/r',
        expected: {
          readable: false,
          network: true,
          console: 'Failed to load resource: net::ERR_INVALID_REDIRECT',
        },
        sent: ['GET A/d/r {PAGE}'],
      },
    ],
  },
]
