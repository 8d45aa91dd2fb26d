import { HTTP_TOKEN } from '../../http/http-token.js'
import type { MockCorsMode } from './options/echo-backend-options.js'

/**
 * Per-request behaviour chosen in the query string, so one mock backend can show every
 * allowed and blocked case. Switches apply to the URL they are on, and a preflight goes to
 * the same URL as the request it announces, so `?allowMethods=GET,POST` on a PUT's URL
 * shapes that PUT's preflight.
 *
 * | switch | values | effect |
 * |---|---|---|
 * | `cors` | `off`, `wildcard`, `reflect` | CORS mode of this request: no CORS headers; `Access-Control-Allow-Origin: *`; or the request's Origin with `Access-Control-Allow-Credentials: true` and `Vary: Origin` |
 * | `status` | `200`–`599` | status of the answer (not of the preflight; see `preflight`) |
 * | `delay` | `0`–`10000` | milliseconds to wait before answering (not before a preflight answer) |
 * | `preflight` | `fail`, `ok` | `fail` answers the preflight 500, which the browser rejects ("It does not have HTTP ok status") |
 * | `preflightStatus` | `200`–`599` | status of the preflight answer (wins over `preflight=fail`), e.g. `299` (still ok), `302` (with a `header=Location:...`, a redirect) |
 * | `allowMethods` | comma-separated methods, or `*` | `Access-Control-Allow-Methods` of the preflight answer, e.g. `GET,POST` to block PUT (default: GET, HEAD, PUT, PATCH, POST, DELETE) |
 * | `allowHeaders` | comma-separated header names, or `*` | `Access-Control-Allow-Headers` of the preflight answer, e.g. `content-type` to block `X-Foo` (default: the requested ones) |
 * | `allowOrigin` | a header value (printable ASCII, e.g. `http://example.com` or `a, b`) | `Access-Control-Allow-Origin` sent instead of the mode's (not with `cors=off`), to show a wrong, invalid or multiple value |
 * | `expose` | comma-separated header names | `Access-Control-Expose-Headers` on the answer |
 * | `credentials` | `true`, `false` | send or omit `Access-Control-Allow-Credentials: true`, whatever the mode's default |
 * | `allowCredentials` | a header value (printable ASCII, spaces allowed, e.g. `True`, ` true`, `1`) | `Access-Control-Allow-Credentials` sent exactly as written, instead of the mode's (not with `cors=off`) |
 * | `header` | `Name:value` (printable ASCII value, may be empty), repeatable | extra response header lines on the answer and the preflight answer, after the mode's: the lines of one name replace the mode's header of that name, and a name given twice is sent as two lines (the body's own `Content-Type` and `Content-Length` win) |
 * | `maxAge` | `0`–`86400` | `Access-Control-Max-Age` of the preflight answer, in seconds |
 * | `redirect` | a path (`/next?x=1`) or a URL on this server | answer 302 (or the 3xx `status`) with this `Location`, as written, to see how a proxy rewrites redirects |
 *
 * An unknown value is answered 400 with a JSON body naming the switch and its allowed values.
 * Query parameters that are not switches are ignored (and echoed).
 *
 * @example
 * // A preflighted PUT that the browser blocks because the preflight does not list PUT:
 * fetch('http://127.0.0.1:4000/items?cors=reflect&allowMethods=GET,POST', { method: 'PUT' })
 */
export interface MockSwitches {
  /** CORS mode of this request; `undefined` keeps the backend's default. */
  readonly cors: MockCorsMode | undefined
  /** Status of the (non-preflight) answer; `undefined` keeps the handler's own. */
  readonly status: number | undefined
  /** Milliseconds to wait before answering. */
  readonly delay: number
  /** Answer the preflight 500. */
  readonly preflightFail: boolean
  /** `Access-Control-Allow-Methods` value; `''` omits the header; `undefined` keeps the default. */
  readonly allowMethods: string | undefined
  /** `Access-Control-Allow-Headers` value; `''` omits the header; `undefined` reflects the requested ones. */
  readonly allowHeaders: string | undefined
  /** `Access-Control-Allow-Origin` value replacing the mode's; `undefined` keeps the mode's. */
  readonly allowOrigin: string | undefined
  /** `Access-Control-Expose-Headers` value, or `undefined` for none. */
  readonly expose: string | undefined
  /** Force `Access-Control-Allow-Credentials` on or off; `undefined` keeps the mode's default. */
  readonly credentials: boolean | undefined
  /** `Access-Control-Max-Age` in seconds, or `undefined` to omit it. */
  readonly maxAge: number | undefined
  /** `Location` of a redirect answer (a path, or an absolute URL the backend checks is its own); `undefined`: no redirect. */
  readonly redirect: string | undefined
  /** Status of the preflight answer; `undefined`: 204, or 500 with `preflightFail`. */
  readonly preflightStatus: number | undefined
  /** `Access-Control-Allow-Credentials` exactly as written; `undefined` keeps the mode's. */
  readonly allowCredentials: string | undefined
  /** Extra response header lines, `[name, value]` in the order given (`header=` switches). */
  readonly headers: readonly (readonly [name: string, value: string])[]
}

/** Why a switch was refused: enough for a 400 body that says how to fix the URL. */
export interface MockSwitchError {
  /** The query parameter, e.g. `cors`. */
  readonly switch: string
  /** The value that was given. */
  readonly value: string
  /** The values it accepts, e.g. `off | wildcard | reflect`. */
  readonly allowed: string
  /** A one-line explanation. */
  readonly error: string
}

/** The outcome of {@link parseMockSwitches}. */
export type MockSwitchesResult =
  | { readonly ok: true; readonly switches: MockSwitches }
  | { readonly ok: false; readonly error: MockSwitchError }

/** Longest `delay` accepted, so a typo cannot hold a connection for hours. */
export const MAX_MOCK_DELAY = 10_000

/** Longest `maxAge` accepted: Firefox's cap (Chromium caps at 7200, so larger values show the cap). */
const MAX_MAX_AGE = 86_400

const DIGITS = /^\d{1,9}$/

/** Longest `redirect` accepted: a Location is a header line, not a document. */
const MAX_REDIRECT_LENGTH = 2048

type SwitchName = Exclude<keyof MockSwitches, 'preflightFail' | 'headers'> | 'preflight' | 'header'
type Parser = (value: string) => { value: unknown } | undefined

function choice<T extends string>(...values: T[]): Parser {
  return (value) => ((values as string[]).includes(value) ? { value } : undefined)
}

function integer(min: number, max: number): Parser {
  return (value) => {
    if (!DIGITS.test(value)) return undefined
    const n = Number(value)
    return n >= min && n <= max ? { value: n } : undefined
  }
}

function tokenList(allowStar: boolean): Parser {
  return (value) => {
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
    if (items.length === 0) return value.trim() === '' ? { value: '' } : undefined
    const ok = items.every((item) => HTTP_TOKEN.test(item) && (allowStar || item !== '*'))
    return ok ? { value: items.join(', ') } : undefined
  }
}

/**
 * A redirect target: a path-absolute reference (`/next`, never `//host`, which is another host)
 * or an absolute http(s) URL, without control characters or spaces (it becomes a header value).
 * Whether an absolute URL is the backend's own is checked where the request is known.
 */
function redirectTarget(value: string): { value: unknown } | undefined {
  if (value.length > MAX_REDIRECT_LENGTH || !/^[\x21-\x7e]+$/.test(value)) return undefined
  if (value.startsWith('/')) return value.startsWith('//') || value.startsWith('/\\') ? undefined : { value }
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return undefined
  return { value }
}

/** Longest `allowOrigin` accepted: a header value, not a document. */
const MAX_ALLOW_ORIGIN_LENGTH = 2048

/** Any printable ASCII header value (spaces inside allowed), so wrong and multiple values can be shown. */
function headerValueSwitch(value: string): { value: unknown } | undefined {
  if (value.length > MAX_ALLOW_ORIGIN_LENGTH || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value)) {
    return undefined
  }
  return { value }
}

/**
 * A value sent exactly as written, surrounding spaces included: Chromium reads header values
 * trimmed, and a case shows that ` true` still passes. Printable ASCII only (a header line).
 */
function rawHeaderValue(value: string): { value: unknown } | undefined {
  return value.length <= MAX_ALLOW_ORIGIN_LENGTH && /^[\x20-\x7e]*$/.test(value) ? { value } : undefined
}

/** `Name:value`: a header name (a token) and a printable value, possibly empty. */
function headerLine(value: string): { value: unknown } | undefined {
  const colon = value.indexOf(':')
  if (colon <= 0) return undefined
  const name = value.slice(0, colon)
  const line = rawHeaderValue(value.slice(colon + 1))
  return HTTP_TOKEN.test(name) && line !== undefined ? { value: [name, line.value] } : undefined
}

/** Switches that may be given more than once; their values are collected in order. */
const REPEATABLE = new Set<SwitchName>(['header'])

/** One switch: how its values are read, and how `cors-dev-proxy mock` and a 400 describe it. */
interface SwitchEntry {
  readonly name: SwitchName
  /** The allowed values in words, for the 400 body. */
  readonly allowed: string
  readonly parse: Parser
  /** The values in short, for the CLI's banner (`name=usage`). */
  readonly usage: string
  /** What it does, in one line of the CLI's banner. */
  readonly effect: string
}

/**
 * Every switch, in the order of the table above: the one list the parser reads and the CLI's
 * banner prints (through {@link MOCK_SWITCH_HELP}), so a new switch is added once.
 */
const SWITCHES: readonly SwitchEntry[] = [
  {
    name: 'cors',
    allowed: 'off | wildcard | reflect',
    parse: choice('off', 'wildcard', 'reflect'),
    usage: 'off|wildcard|reflect',
    effect: 'CORS mode of this request (overrides --cors)',
  },
  {
    name: 'status',
    allowed: 'an integer from 200 to 599',
    parse: integer(200, 599),
    usage: '200-599',
    effect: 'status of the answer (not of the preflight)',
  },
  {
    name: 'delay',
    allowed: `milliseconds from 0 to ${MAX_MOCK_DELAY}`,
    parse: integer(0, MAX_MOCK_DELAY),
    usage: `0-${MAX_MOCK_DELAY}`,
    effect: 'milliseconds to wait before answering',
  },
  {
    name: 'preflight',
    allowed: 'fail | ok',
    parse: choice('fail', 'ok'),
    usage: 'fail|ok',
    effect: 'fail answers the preflight 500 ("It does not have HTTP ok status")',
  },
  {
    name: 'preflightStatus',
    allowed: 'an integer from 200 to 599',
    // Not 1xx: an HTTP/1.1 answer with a 1xx status is an interim response, never the final one.
    parse: integer(200, 599),
    usage: '200-599',
    effect: 'status of the preflight answer (302 with header=Location:/x)',
  },
  {
    name: 'allowMethods',
    allowed: 'comma-separated methods (e.g. GET,POST) or *',
    parse: tokenList(true),
    usage: 'GET,POST|*',
    effect: 'Access-Control-Allow-Methods of the preflight answer',
  },
  {
    name: 'allowHeaders',
    allowed: 'comma-separated header names (e.g. content-type) or *',
    parse: tokenList(true),
    usage: 'content-type|*',
    effect: 'Access-Control-Allow-Headers of the preflight answer',
  },
  {
    name: 'allowOrigin',
    allowed: 'a printable header value (e.g. http://example.com)',
    parse: headerValueSwitch,
    usage: 'a header value',
    effect: "Access-Control-Allow-Origin instead of the mode's: a wrong, invalid or multiple value",
  },
  {
    name: 'expose',
    allowed: 'comma-separated header names (e.g. x-a,x-b)',
    parse: tokenList(false),
    usage: 'x-a,x-b',
    effect: 'Access-Control-Expose-Headers',
  },
  {
    name: 'credentials',
    allowed: 'true | false',
    parse: choice('true', 'false'),
    usage: 'true|false',
    effect: 'force Access-Control-Allow-Credentials on or off',
  },
  {
    name: 'allowCredentials',
    allowed: 'a printable header value (e.g. True)',
    parse: rawHeaderValue,
    usage: 'True',
    effect: 'Access-Control-Allow-Credentials exactly as written',
  },
  {
    name: 'header',
    allowed: 'Name:value (e.g. X-Custom:1), repeatable',
    parse: headerLine,
    usage: 'X-Custom:1',
    effect: "an extra response header line (repeatable; replaces the mode's of that name)",
  },
  {
    name: 'maxAge',
    allowed: `seconds from 0 to ${MAX_MAX_AGE}`,
    parse: integer(0, MAX_MAX_AGE),
    usage: `0-${MAX_MAX_AGE}`,
    effect: 'Access-Control-Max-Age of the preflight answer',
  },
  {
    name: 'redirect',
    allowed: 'a path (e.g. /next) or an http(s) URL on this server',
    parse: redirectTarget,
    usage: '/next?x=1',
    effect: 'answer 302 (or the 3xx status) with that Location, exactly as written',
  },
]

/**
 * The mock backend's switches as `cors-dev-proxy mock` prints them, `[name, values, effect]` in
 * the order of the docs' Mock backend page (docs/guide/mock-backend.md), derived from the table
 * the parser reads.
 *
 * @example
 * for (const [name, values, effect] of MOCK_SWITCH_HELP) console.log(`${name}=${values}  ${effect}`)
 */
export const MOCK_SWITCH_HELP: ReadonlyArray<readonly [name: string, values: string, effect: string]> =
  Object.freeze(SWITCHES.map((entry) => Object.freeze([entry.name, entry.usage, entry.effect] as const)))

/**
 * Reads the switches from a request's query. Pure; table-tested.
 *
 * @example
 * parseMockSwitches(new URLSearchParams('cors=reflect&status=404'))
 * // { ok: true, switches: { cors: 'reflect', status: 404, delay: 0, ... } }
 */
export function parseMockSwitches(query: URLSearchParams): MockSwitchesResult {
  const parsed: Partial<Record<SwitchName, unknown>> = {}
  for (const { name, allowed, parse } of SWITCHES) {
    const values = query.getAll(name)
    if (values.length === 0) continue
    if (values.length > 1 && !REPEATABLE.has(name)) {
      const value = values[0] ?? ''
      return { ok: false, error: { switch: name, value, allowed, error: `switch "${name}" is given twice` } }
    }
    const results: unknown[] = []
    for (const value of values) {
      const result = parse(value)
      if (result === undefined) {
        const error = `unknown value ${JSON.stringify(value)} for switch "${name}": use ${allowed}`
        return { ok: false, error: { switch: name, value, allowed, error } }
      }
      results.push(result.value)
    }
    parsed[name] = REPEATABLE.has(name) ? results : results[0]
  }
  return {
    ok: true,
    switches: {
      cors: parsed.cors as MockCorsMode | undefined,
      status: parsed.status as number | undefined,
      delay: (parsed.delay as number | undefined) ?? 0,
      preflightFail: parsed.preflight === 'fail',
      allowMethods: parsed.allowMethods as string | undefined,
      allowHeaders: parsed.allowHeaders as string | undefined,
      allowOrigin: parsed.allowOrigin as string | undefined,
      expose: parsed.expose as string | undefined,
      credentials: parsed.credentials === undefined ? undefined : parsed.credentials === 'true',
      maxAge: parsed.maxAge as number | undefined,
      redirect: parsed.redirect as string | undefined,
      preflightStatus: parsed.preflightStatus as number | undefined,
      allowCredentials: parsed.allowCredentials as string | undefined,
      headers: (parsed.header as [string, string][] | undefined) ?? [],
    },
  }
}
