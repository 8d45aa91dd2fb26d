import { createHash } from 'node:crypto'
import { maskHeaderValue, maskUrl } from '../../http/mask-secrets.js'
import { type MaskRules, maskedText } from '../file-masking.js'
import { SLUG_LENGTH, slugOf } from '../route-folder.js'
import { maskedBodyKey, queryName, sortedQuery } from './key-parts.js'
import { multipartAsForm } from './multipart-form.js'
import { type RequestSecret, requestSecret } from './request-secrets.js'

/*
 * What makes two requests "the same" for a recording, and the file that holds it. The match
 * compares the method (case-sensitive, as the browser sends it), the path, the query with its
 * pairs in any order, and the body as data: JSON by value whatever its spacing and key order,
 * a GraphQL call by its operation name and variables (the query text's formatting does not
 * matter), a form by its pairs (a multipart one too, whatever its boundary). Secrets are masked
 * before any of this, so the key (and the file name) never derives from a password or a token,
 * and a replay with another token still finds the recording. What the answer depends on among those secrets (a password, Basic
 * credentials: see request-secrets.ts) comes with the key as `secret`, matched inside the file
 * against a verifier, never written.
 */

/** A request as the key sees it. */
export interface KeyedRequest {
  readonly method: string
  /** The path relative to the route's prefix, with its query. */
  readonly path: string
  readonly body: Buffer | undefined
  readonly contentType: string | undefined
  /** The `Authorization` header: its Basic credentials tell requests apart. */
  readonly authorization?: string | undefined
  /** The request's headers (lower-case names), of which the key holds those `match.matchHeaders` names. */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>
}

/** What a route's `match` changes in its keys. */
export interface KeyMatch {
  /** Query keys left out of the key. */
  readonly ignoreQuery: readonly string[]
  /** Lower-case header names the key holds. */
  readonly matchHeaders: readonly string[]
}

/** A request's key: what it is matched on, and its file's name. */
export interface RequestKey {
  /** The path with secret query values masked, as the file shows it. */
  readonly path: string
  /** The body as the match compares it, secrets masked; `undefined` without a body. */
  readonly body: string | undefined
  /** `<method>-<readable path>.<hash>.json`: only `[A-Za-z0-9._-]`, at most 100 characters. */
  readonly fileName: string
  /** The secrets the answer depends on, matched against a verifier in the file; never written. */
  readonly secret: RequestSecret | undefined
  /** The headers `match.matchHeaders` names that the request has, sorted, secret values masked. */
  readonly headers: readonly (readonly [string, string])[] | undefined
}

/** The inspector's rules alone (what the key masks when the caller has no recordings options). */
const INSPECTOR_RULES: MaskRules = Object.freeze({ mask: true, maskNames: Object.freeze([]) })

const FORM_TYPE = 'application/x-www-form-urlencoded'

/** The query as written, without the ignored keys' pairs. */
function withoutIgnored(path: string, ignore: readonly string[]): string {
  const question = path.indexOf('?')
  if (ignore.length === 0 || question < 0) return path
  const kept = path
    .slice(question + 1)
    .split('&')
    .filter((pair) => pair !== '' && !ignore.includes(queryName(pair)))
  return kept.length === 0 ? path.slice(0, question) : `${path.slice(0, question)}?${kept.join('&')}`
}

/**
 * The headers the key holds (those `names` lists, sorted, secret values masked) and the material
 * of the secret ones, which the key does not hold but the file tells apart (see request-secrets.ts).
 */
function keyHeaders(
  request: KeyedRequest,
  names: readonly string[],
): { headers: [string, string][] | undefined; material: string } {
  if (names.length === 0) return { headers: undefined, material: '' }
  const headers: [string, string][] = []
  let material = ''
  for (const name of [...names].sort()) {
    const given = request.headers?.[name]
    if (given === undefined) continue
    const value = Array.isArray(given) ? given.join(', ') : given
    const masked = maskHeaderValue(name, value)
    headers.push([name, masked])
    if (masked !== value) material += `\nheader ${name}: ${value}`
  }
  return { headers, material }
}

/** The request's secret with the secret headers' material added. */
function withHeaderSecret(secret: RequestSecret | undefined, material: string): RequestSecret | undefined {
  if (material === '' || secret?.kind === 'masked') return secret
  return { kind: 'value', material: `${secret?.material ?? ''}${material}` }
}

/**
 * The body as the match compares it (masked, see `maskedBodyKey`; bytes that are not UTF-8 by
 * their hash) and the secrets masking took out of it and of `Authorization`.
 */
function bodyKey(
  request: KeyedRequest,
  rules: MaskRules,
): { body: string | undefined; secret: RequestSecret | undefined } {
  const { body, contentType, authorization } = request
  if (body === undefined || body.byteLength === 0) {
    return { body: undefined, secret: requestSecret(undefined, undefined, contentType, authorization, rules) }
  }
  const text = body.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(body)) {
    return {
      body: `sha256 ${createHash('sha256').update(body).digest('hex')}`,
      secret: requestSecret(undefined, undefined, contentType, authorization, rules),
    }
  }
  // A multipart form is keyed as the form it holds: its fields, not its random boundary.
  const form = multipartAsForm(text, contentType)
  const [keyed, keyedType] = form === undefined ? [text, contentType] : [form, FORM_TYPE]
  const masked = maskedText(keyed, keyedType, rules)
  return {
    body: form === undefined ? maskedBodyKey(masked, contentType) : `multipart ${sortedQuery(masked)}`,
    secret: requestSecret(keyed, masked, keyedType, authorization, rules),
  }
}

/**
 * The key of a request: its masked path, its comparable body, its file name (a readable,
 * escaped slug of the method and path, and a hash of everything the match compares, secrets
 * masked) and its secret. `rules.maskNames` adds field names to mask; the key masks whatever
 * `rules.mask` says (`mask: false` is about the answers written), so a rotating token never
 * parts two requests.
 *
 * @example
 * requestKey({ method: 'GET', path: '/users?b=2&a=1', body: undefined, contentType: undefined }).fileName
 * // 'GET-users.<16 hex digits>.json', the same for '/users?a=1&b=2'
 */
export function requestKey(
  request: KeyedRequest,
  rules: MaskRules = INSPECTOR_RULES,
  match: KeyMatch = NO_MATCH,
): RequestKey {
  const keyRules = rules.mask ? rules : { mask: true, maskNames: rules.maskNames }
  const path = withoutIgnored(maskUrl(request.path), match.ignoreQuery)
  const question = path.indexOf('?')
  const pathname = question < 0 ? path : path.slice(0, question)
  const query = question < 0 ? '' : sortedQuery(path.slice(question + 1))
  const { body, secret } = bodyKey(request, keyRules)
  const { headers, material } = keyHeaders(request, match.matchHeaders)
  // Named headers join the hash only when there are names: keys made without them stay as they were.
  const headerText =
    headers === undefined ? '' : `\n${headers.map(([name, value]) => `${name}: ${value}`).join('\n')}`
  const hash = createHash('sha256')
    .update(`${request.method}\n${pathname}\n${query}\n${body ?? ''}${headerText}`)
    .digest('hex')
    .slice(0, 16)
  const slug = slugOf(`${slugOf(request.method, 16)}-${pathname}`, SLUG_LENGTH) || 'request'
  return { path, body, fileName: `${slug}.${hash}.json`, secret: withHeaderSecret(secret, material), headers }
}

/** No `match` rules: the key of every request as it always was. */
const NO_MATCH: KeyMatch = Object.freeze({ ignoreQuery: Object.freeze([]), matchHeaders: Object.freeze([]) })
