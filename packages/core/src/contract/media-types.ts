import { isJsonMimeType, mimeEssence } from '../http/mime.js'
import type { SchemaCheck } from './schema-compiler.js'

/** A declared media type of a body: the key as written, and its compiled schema for a JSON one. */
export interface MediaTypeEntry {
  readonly key: string
  /** Lowercase, parameters dropped: `application/json`, `application/*`, `*\/*`. */
  readonly essence: string
  /** Undefined when the body is not JSON or the media type has no schema: only its presence is checked. */
  readonly check: SchemaCheck | undefined
}

/**
 * The declared media type a `content-type` falls under, most specific first (OpenAPI 3.0.3
 * section 4.7.10: "the most specific key is applicable"): the exact type, then `type/*`, then `*\/*`.
 *
 * @example
 * pickMediaType(entries, 'application/json; charset=utf-8') // the 'application/json' entry
 */
export function pickMediaType(
  entries: readonly MediaTypeEntry[],
  contentType: string | undefined,
): MediaTypeEntry | undefined {
  const essence = contentEssence(contentType)
  if (essence === null) return undefined
  // The exact type first, without building the wildcard: it is what almost every answer has.
  for (const entry of entries) if (entry.essence === essence) return entry
  const wildcard = `${essence.slice(0, essence.indexOf('/'))}/*`
  return (
    entries.find((entry) => entry.essence === wildcard) ?? entries.find((entry) => entry.essence === '*/*')
  )
}

/** The essences of the content types seen, since the same few repeat on every answer. */
const ESSENCES = new Map<string, string | null>()
const MAX_ESSENCES = 256

/**
 * The essence of a `content-type` (`application/json`), remembered for the next answer: the
 * WHATWG parse (http/mime.ts) costs microseconds, as much as the rest of a small check.
 *
 * @example
 * contentEssence('Application/JSON; charset=utf-8') // 'application/json'
 */
export function contentEssence(contentType: string | undefined): string | null {
  if (contentType === undefined) return null
  let essence = ESSENCES.get(contentType)
  if (essence === undefined) {
    essence = mimeEssence(contentType)
    if (ESSENCES.size >= MAX_ESSENCES) ESSENCES.clear()
    ESSENCES.set(contentType, essence)
  }
  return essence
}

/** Whether a declared media type's bodies are JSON, which the checker parses and checks against the schema. */
export function isJsonMediaType(key: string): boolean {
  return isJsonMimeType(key)
}

/** The declared keys for a message: `application/json, application/xml`. */
export function listMediaTypes(entries: readonly MediaTypeEntry[]): string {
  return entries.map((entry) => entry.key).join(', ')
}
