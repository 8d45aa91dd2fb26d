import { MOCK_SWITCH_HELP } from '@cors-dev-proxy/core/adapter'

/**
 * The per-request switches of the mock backend, as `cors-dev-proxy mock` prints them: the core's
 * own table (the one its parser reads), so the two cannot drift; a test keeps it in step with
 * the docs' Mock backend page (docs/guide/mock-backend.md).
 */
export const MOCK_SWITCHES: ReadonlyArray<readonly [name: string, values: string, effect: string]> =
  MOCK_SWITCH_HELP

/** The paths the mock backend answers specially; every other path echoes the request. */
export const MOCK_PATHS: ReadonlyArray<readonly [path: string, effect: string]> = Object.freeze([
  ['/any/path', 'echoes method, path, query, headers, origin, cookies, body and protocol as JSON'],
  ['/any/path?callback=fn', 'the same echo as JSONP (GET only)'],
  ['/cookie?set=name=value', 'sets a cookie (&domain=... adds a Domain); /cookie reads them back'],
  ['/events?count=3&interval=100', 'a server-sent event stream that ends after count events'],
  ['/ws', 'a WebSocket echo'],
])
