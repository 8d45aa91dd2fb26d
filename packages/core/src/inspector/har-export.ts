import { MASK } from '../http/mask-secrets.js'
import { type ExchangeRecord, originOf } from './exchange-ring.js'
import { viewExchange } from './exchange-view.js'

/** A HAR 1.2 name/value pair. */
interface HarPair {
  readonly name: string
  readonly value: string
}

/** The creator field of our HAR files. */
export interface HarCreator {
  readonly name: string
  readonly version: string
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
}

/** A URL field must be a valid URI: the mask's brackets percent-encoded there (`%5Bmasked%5D`). */
function uriOf(url: string): string {
  return url.replaceAll(MASK, encodeURIComponent(MASK))
}

function httpVersion(protocol: string | undefined): string {
  return protocol === 'h2' ? 'HTTP/2.0' : 'HTTP/1.1'
}

function queryOf(url: string): HarPair[] {
  const question = url.indexOf('?')
  if (question < 0) return []
  const pairs: HarPair[] = []
  for (const part of url
    .slice(question + 1)
    .split('#')[0]
    ?.split('&') ?? []) {
    if (part === '') continue
    const equals = part.indexOf('=')
    const decode = (text: string): string => {
      try {
        return decodeURIComponent(text.replaceAll('+', ' '))
      } catch {
        return text
      }
    }
    const name = decode(equals < 0 ? part : part.slice(0, equals))
    const value = equals < 0 ? '' : part.slice(equals + 1)
    // A masked value stays `[masked]`, never decoded into something else.
    pairs.push({ name, value: value === MASK ? MASK : decode(value) })
  }
  return pairs
}

function cookiesOf(header: string | undefined): HarPair[] {
  if (header === undefined) return []
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes('='))
    .map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: MASK }))
}

/**
 * The recorded exchanges as a HAR 1.2 log (`log.entries`, oldest first), masked like the
 * inspector. `request.url` is the URL the page asked for (the dev server's origin and the path
 * as received); the upstream URL goes in `_upstreamUrl`, with `_route`, `_upstreamProtocol`,
 * `_cors` and `_hooks` beside it, and `_ours: 'probe'` on a request cors-dev-proxy sent itself
 * (HAR's convention: custom fields start with `_`). Loads in
 * Chromium's DevTools (Network panel, "Import HAR file").
 *
 * @example
 * JSON.stringify(harOf(ring.list(), { name: 'cors-dev-proxy', version: '0.1.0' }))
 */
export function harOf(records: readonly ExchangeRecord[], creator: HarCreator) {
  const entries = records.map((record) => {
    const view = viewExchange(record)
    const requestHeaders = view.requestHeaders.filter(([name]) => !name.startsWith(':'))
    const responseHeaders = view.responseHeaders
    const find = (list: readonly (readonly [string, string])[], name: string) =>
      list.find(([key]) => key === name)?.[1]
    const requestType = find(requestHeaders, 'content-type')
    const responseType = find(responseHeaders, 'content-type') ?? 'x-unknown'
    const total = view.total ?? 0
    const wait = view.ttfb ?? total
    const setCookies = responseHeaders
      .filter(([name]) => name === 'set-cookie')
      .map(([, value]) => value.split(';')[0] ?? '')
    return {
      startedDateTime: view.startedAt,
      time: total,
      request: {
        method: view.method,
        url: uriOf(`${originOf(record)}${view.url}`),
        httpVersion: httpVersion(view.clientProtocol),
        cookies: cookiesOf(find(requestHeaders, 'cookie')),
        headers: requestHeaders.map(([name, value]) => ({ name, value })),
        queryString: queryOf(view.url),
        ...(view.requestBody === undefined
          ? {}
          : { postData: { mimeType: requestType ?? 'application/octet-stream', text: view.requestBody } }),
        headersSize: -1,
        bodySize: view.requestBytes,
      },
      response: {
        status: view.status,
        statusText: STATUS_TEXT[view.status] ?? '',
        httpVersion: httpVersion(view.clientProtocol),
        cookies: setCookies.map((pair) => ({
          name: pair.slice(0, Math.max(0, pair.indexOf('='))),
          value: MASK,
        })),
        headers: responseHeaders.map(([name, value]) => ({ name, value })),
        content: {
          size: record.responseBody?.byteLength ?? -1,
          mimeType: responseType,
          ...(view.responseBody === undefined ? {} : { text: view.responseBody }),
        },
        redirectURL: find(responseHeaders, 'location') ?? '',
        headersSize: -1,
        bodySize: view.responseBytes,
      },
      cache: {},
      timings: {
        blocked: -1,
        dns: -1,
        connect: -1,
        ssl: -1,
        send: 0,
        wait,
        receive: Math.max(0, total - wait),
      },
      _upstreamUrl: view.upstreamUrl === undefined ? null : uriOf(view.upstreamUrl),
      _upstreamProtocol: view.upstreamProtocol ?? null,
      _route: view.route,
      _cors: view.cors,
      _hooks: view.hooks,
      ...(view.replayOf === undefined ? {} : { _replayOf: view.replayOf }),
      ...(view.ours === undefined ? {} : { _ours: view.ours }),
      // On a route with `openapi` only: each place the exchange breaks the document ([] when none).
      ...(view.violations === undefined
        ? {}
        : {
            _violations: view.violations.map((violation) => ({
              in: violation.in,
              operation: violation.operation,
              pointer: violation.pointer,
              message: violation.message,
            })),
          }),
    }
  })
  return { log: { version: '1.2', creator, pages: [], entries } }
}
