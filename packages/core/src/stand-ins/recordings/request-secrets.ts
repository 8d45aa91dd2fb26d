import { isSecretField, isSecretParam, MASK } from '../../http/mask-secrets.js'
import type { MaskRules } from '../file-masking.js'

/*
 * The secrets of a request that its answer depends on: a password in a JSON or form body, the
 * credentials of `Authorization: Basic`. The key masks them (a file never holds one), so two
 * logins that differ only in the password share a key and a file; what tells them apart is this
 * material, which the file keeps only as a salted, slow verifier (see secret-verifier.ts).
 *
 * Credentials that rotate are left out, as the key always left them out: a Bearer token, a
 * session cookie, a body field named like a token, a session, a one-time code or a signature
 * (`refresh_token`, `csrfToken`, `code`). A replayed login hands out masked tokens, and the
 * calls after it must still find their recordings with those.
 */

/** What a request's secrets are to the match: their material, or masked already (a HAR from the inspector). */
export type RequestSecret =
  | { readonly kind: 'value'; readonly material: string }
  | { readonly kind: 'masked' }

/** The mask as a form body writes it. */
const FORM_MASK = encodeURIComponent(MASK)

/** Names of values that change from one session to the next: never part of the match. */
const ROTATING = /(tokens?|jwt|session|sessionid|sid|code|sig|signature|nonce|csrf|xsrf)$/

function isRotating(name: string): boolean {
  return ROTATING.test(name.toLowerCase().replace(/[-_.]/g, ''))
}

/** Whether a JSON field's value is masked by the rules (inspector's names or the user's). */
function isMaskedJsonField(name: string, value: unknown, rules: MaskRules): boolean {
  if (value !== null && typeof value === 'object') return false
  if (rules.maskNames.includes(name.toLowerCase())) return true
  return rules.mask && value !== null && isSecretField(name)
}

/** `[where, value]` of every masked, non-rotating value of JSON data, at any depth. */
function jsonSecrets(value: unknown, where: string, rules: MaskRules, out: [string, string][]): void {
  if (Array.isArray(value)) {
    value.forEach((inner, index) => {
      jsonSecrets(inner, `${where}[${index}]`, rules, out)
    })
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [name, inner] of Object.entries(value)) {
    const at = `${where}.${JSON.stringify(name)}`
    if (isMaskedJsonField(name, inner, rules)) {
      if (!isRotating(name))
        out.push([`json ${at}`, typeof inner === 'string' ? inner : JSON.stringify(inner)])
    } else jsonSecrets(inner, at, rules, out)
  }
}

/** `[where, value]` of every masked, non-rotating field of a form body. */
function formSecrets(text: string, rules: MaskRules, out: [string, string][]): void {
  const counts = new Map<string, number>()
  for (const [name, value] of new URLSearchParams(text)) {
    const index = counts.get(name) ?? 0
    counts.set(name, index + 1)
    const masked =
      rules.maskNames.includes(name.toLowerCase()) ||
      (rules.mask && (isSecretField(name) || isSecretParam(name)))
    if (masked && !isRotating(name)) out.push([`form ${JSON.stringify(name)}[${index}]`, value])
  }
}

/** The body's secrets, read the way `maskBody` reads the body (JSON by type or by its first character). */
function bodySecrets(
  text: string,
  contentType: string | undefined,
  rules: MaskRules,
  out: [string, string][],
) {
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('application/x-www-form-urlencoded')) {
    formSecrets(text, rules, out)
    return
  }
  try {
    jsonSecrets(JSON.parse(text), '$', rules, out)
  } catch {
    // Not JSON: nothing the rules mask, so nothing the key left out.
  }
}

/**
 * The secrets a request's answer depends on, from its body (only when masking changed it,
 * `maskedBody !== body`, or it holds the mask already) and its `Authorization: Basic` credentials; `undefined` when it has none.
 *
 * @example
 * requestSecret('{"user":"ada","password":"x"}', '{"user":"ada","password":"[masked]"}', 'application/json', undefined, rules)
 * // { kind: 'value', material: '[["json $.\\"password\\"","x"]]' }
 */
export function requestSecret(
  body: string | undefined,
  maskedBody: string | undefined,
  contentType: string | undefined,
  authorization: string | undefined,
  rules: MaskRules,
): RequestSecret | undefined {
  const found: [string, string][] = []
  // Masking left the body as it was: it has no secret, unless one was masked before (a HAR).
  if (body !== undefined && (maskedBody !== body || body.includes(MASK) || body.includes(FORM_MASK))) {
    bodySecrets(body, contentType, rules, found)
  }
  const basic = /^basic\s+(\S+)\s*$/i.exec(authorization ?? '')
  if (basic?.[1] !== undefined) found.push(['authorization basic', basic[1]])
  if (found.length === 0) return undefined
  // A value masked already (an imported HAR the inspector exported) cannot be verified.
  if (found.some(([, value]) => value === MASK)) return { kind: 'masked' }
  found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return { kind: 'value', material: JSON.stringify(found) }
}
