import { maskHeaderValue, maskUrl } from '../../http/mask-secrets.js'
import { maskedText } from '../file-masking.js'
import { maskedBodyKey, sortedQuery } from '../recordings/key-parts.js'
import type { ReplayMatchRules } from './replay-data.js'

/*
 * A `Request` as the recordings' key compares it, without Node: the same steps as
 * recordings/recording-key.ts (secrets masked, the query's pairs sorted and the ignored keys
 * left out, JSON by value, GraphQL by operation and variables, a form by its sorted pairs, the
 * headers `matchHeaders` names), but no file name, so no hash: two keys are compared whole. A
 * body that is not UTF-8 is compared by its SHA-256, from Web Crypto. A multipart body is not
 * compared as a form here (its file parts' hashes are Node's): it matches no recording.
 */

/** A request as the match compares it. */
export interface ComparedRequest {
  readonly method: string
  /** The path after the prefix, without the query. */
  readonly pathname: string
  /** The query's pairs sorted, the ignored keys left out (secret values masked). */
  readonly query: string
  readonly body: string | undefined
  /** `name: value` lines of the named headers, sorted. */
  readonly headers: string
}

async function bodyKey(bytes: Uint8Array<ArrayBuffer>, contentType: string, maskNames: readonly string[]) {
  if (bytes.byteLength === 0) return undefined
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
    return `sha256 ${[...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
  }
  if (/^\s*multipart\/form-data/i.test(contentType)) return `multipart unsupported ${text.length}`
  return maskedBodyKey(maskedText(text, contentType, { mask: true, maskNames }), contentType)
}

/** A path's pathname and sorted query, the ignored keys left out. */
export function splitPath(path: string, ignore: readonly string[]): { pathname: string; query: string } {
  const masked = maskUrl(path)
  const question = masked.indexOf('?')
  if (question < 0) return { pathname: masked, query: '' }
  return { pathname: masked.slice(0, question), query: sortedQuery(masked.slice(question + 1), ignore) }
}

/** The named headers as `name: value` lines, sorted, secret values masked. */
export function headerLines(get: (name: string) => string | null | undefined, names: readonly string[]) {
  const lines: string[] = []
  for (const name of [...names].sort()) {
    const value = get(name)
    if (value !== null && value !== undefined) lines.push(`${name}: ${maskHeaderValue(name, value)}`)
  }
  return lines.join('\n')
}

/**
 * `request` (at `relative`, its path after the prefix) as the match compares it; reads a clone's body.
 *
 * @example
 * const compared = await compareRequest(request, '/items?b=2&a=1', rules, [])
 */
export async function compareRequest(
  request: Request,
  relative: string,
  rules: ReplayMatchRules,
  maskNames: readonly string[],
): Promise<ComparedRequest> {
  const { pathname, query } = splitPath(relative, rules.ignoreQuery)
  const bytes = new Uint8Array(await request.clone().arrayBuffer())
  return {
    method: request.method,
    pathname,
    query,
    body: await bodyKey(bytes, request.headers.get('content-type') ?? '', maskNames),
    headers: headerLines((name) => request.headers.get(name), rules.matchHeaders),
  }
}
