import { route, type SequenceCall, type SequenceCase } from './sequence-kit.js'
import type { Route } from './sequence-server.js'

/**
 * A redirect whose Location carries `user:password@` (or a user alone), measured in Chromium 156
 * with fetch and XMLHttpRequest: from or to another origin than the page's, in CORS mode, it is
 * the CORS error quoting an empty location; fetch never follows one otherwise (no-cors, a
 * same-origin hop, `mode: 'same-origin'`), and prints nothing at all; XMLHttpRequest follows a
 * same-origin one without putting the credentials on the wire, and sends them as
 * `Authorization: Basic` only when the server answers 401 with a Basic challenge.
 */

const TEXT =
  "Redirect location '' contains a username and password, which is disallowed for cross-origin requests."
/** Chromium fails the fetch and prints nothing. */
const SILENT = { readable: false, network: true, console: null } as const

/** A 302 (or `status`) to `location`, readable by the page. */
const redirect = (location: string, status = 302): Route =>
  route({
    status,
    headers: {
      location,
      'access-control-allow-origin': '{PAGE}',
      'access-control-allow-credentials': 'true',
    },
  })
/** 200 only when no Authorization came: the userinfo is not sent by itself. */
const withoutAuthorization: Route = (request) => ({
  status: request.headers.authorization === undefined ? 200 : 400,
  headers: { 'access-control-allow-origin': '{PAGE}' },
})
/** A 401 Basic challenge, 200 once `user:pass` comes as Authorization. */
const basicChallenge: Route = (request) =>
  request.headers.authorization === 'Basic dXNlcjpwYXNz'
    ? { status: 200 }
    : { status: 401, headers: { 'www-authenticate': 'Basic realm="sequences"' } }

/** A same-origin redirect to a URL with userinfo: fetch fails silently, XMLHttpRequest reads a 200 after sending `xhrSent`. */
function sameOrigin(call: Omit<SequenceCall, 'expected' | 'sent'>, xhrSent: readonly string[]): SequenceCall {
  return {
    ...call,
    expected: SILENT,
    sent: xhrSent.slice(0, 1),
    xhr: { expected: { readable: true, status: 200 }, sent: xhrSent },
  }
}

export const USERINFO_CASES: readonly SequenceCase[] = [
  {
    name: 'userinfo: same origin to same origin: fetch fails silently, XMLHttpRequest follows without sending it',
    routes: { 'P /r': redirect('{P@user:pass}/t'), 'P /t': withoutAuthorization },
    calls: [sameOrigin({ url: '{P}/r' }, ['GET P/r -', 'GET P/t -'])],
  },
  {
    name: 'userinfo: a user alone, credentials included: the same',
    routes: { 'P /r': redirect('{P@u}/t'), 'P /t': withoutAuthorization },
    calls: [sameOrigin({ url: '{P}/r', credentials: true }, ['GET P/r -', 'GET P/t -'])],
  },
  {
    name: 'userinfo: same origin, a 401 Basic challenge: XMLHttpRequest answers it with Authorization',
    routes: { 'P /r': redirect('{P@user:pass}/t'), 'P /t': basicChallenge },
    calls: [sameOrigin({ url: '{P}/r' }, ['GET P/r -', 'GET P/t -', 'GET P/t -'])],
  },
  {
    name: 'userinfo: same origin, 307 of a PUT: XMLHttpRequest sends the PUT again',
    routes: { 'P /r': redirect('{P@user:pass}/t', 307), 'P /t': withoutAuthorization },
    calls: [
      sameOrigin({ url: '{P}/r', method: 'PUT', body: 'string' }, ['PUT P/r {PAGE}', 'PUT P/t {PAGE}']),
    ],
  },
  {
    name: 'userinfo: same origin, then on to another origin: XMLHttpRequest reads it there',
    routes: {
      'P /r': redirect('{P@user:pass}/r2'),
      'P /r2': redirect('{A}/t'),
      'A /t': withoutAuthorization,
    },
    calls: [sameOrigin({ url: '{P}/r' }, ['GET P/r -', 'GET P/r2 -', 'GET A/t {PAGE}'])],
  },
  {
    name: "userinfo: from another origin back to the page's origin: the CORS error",
    routes: { 'A /r': redirect('{P@user:pass}/t'), 'P /t': withoutAuthorization },
    calls: [
      { url: '{A}/r', expected: { readable: false, at: '{A}/r', text: TEXT }, sent: ['GET A/r {PAGE}'] },
    ],
  },
  {
    name: "userinfo: from another origin back to the page's origin, credentials included: the CORS error",
    routes: { 'A /r': redirect('{P@u}/t'), 'P /t': withoutAuthorization },
    calls: [
      {
        url: '{A}/r',
        credentials: true,
        expected: { readable: false, at: '{A}/r', text: TEXT },
        sent: ['GET A/r {PAGE}'],
      },
    ],
  },
  {
    name: "userinfo: from the page's origin to another: the CORS error names the page's URL",
    routes: { 'P /r': redirect('{A@user:pass}/t'), 'A /t': withoutAuthorization },
    calls: [{ url: '{P}/r', expected: { readable: false, at: '{P}/r', text: TEXT }, sent: ['GET P/r -'] }],
  },
  {
    name: 'userinfo: another origin to itself: the CORS error',
    routes: { 'A /r': redirect('{A@user:pass}/t'), 'A /t': withoutAuthorization },
    calls: [
      { url: '{A}/r', expected: { readable: false, at: '{A}/r', text: TEXT }, sent: ['GET A/r {PAGE}'] },
    ],
  },
  {
    name: "userinfo: credentials 'omit', same origin: fetch fails silently",
    fetchOnly: "XMLHttpRequest has no credentials 'omit'",
    routes: { 'P /r': redirect('{P@user:pass}/t'), 'P /t': withoutAuthorization },
    calls: [{ url: '{P}/r', credentials: 'omit', expected: SILENT, sent: ['GET P/r -'] }],
  },
  {
    name: "userinfo: mode 'no-cors' to another origin: fetch fails silently, no CORS error",
    fetchOnly: 'XMLHttpRequest has no mode',
    routes: { 'A /r': redirect('{A@user:pass}/t'), 'A /t': withoutAuthorization },
    calls: [{ url: '{A}/r', mode: 'no-cors', expected: SILENT, sent: ['GET A/r -'] }],
  },
  {
    name: "userinfo: mode 'same-origin' to another origin: the same-origin refusal comes first",
    fetchOnly: 'XMLHttpRequest has no mode',
    routes: { 'P /r': redirect('{A@user:pass}/t'), 'A /t': withoutAuthorization },
    calls: [
      {
        url: '{P}/r',
        mode: 'same-origin',
        expected: {
          readable: false,
          network: true,
          console:
            'Unsafe attempt to load URL {A@user:pass}/t from frame with URL {PAGE}/. Domains, protocols and ports must match.\n',
        },
        sent: ['GET P/r -'],
      },
    ],
  },
  {
    name: "userinfo: redirect 'manual' returns the opaque redirect without looking at it",
    fetchOnly: 'XMLHttpRequest has no redirect option',
    routes: { 'A /r': redirect('{P@user:pass}/t') },
    calls: [
      {
        url: '{A}/r',
        redirect: 'manual',
        expected: { readable: true, type: 'opaqueredirect' },
        sent: ['GET A/r {PAGE}'],
      },
    ],
  },
]
