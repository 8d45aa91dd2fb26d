import { getHeader, type HeadersInput } from '../http/header-list.js'
import { isSafelistedMethod } from './classify-request.js'

/** Seconds a preflight answer is cached when it has no usable `Access-Control-Max-Age` (Chromium's default). */
export const PREFLIGHT_CACHE_DEFAULT_SECONDS = 5

/** Longest time Chromium caches a preflight answer, whatever `Access-Control-Max-Age` says (2 hours). */
export const PREFLIGHT_CACHE_MAX_SECONDS = 7200

/** Chromium keeps no entry for a URL this long or longer (its cache key limit). */
const MAX_KEY_LENGTH = 1024

/** Chromium's entry limit; beyond it entries are dropped (Chromium drops a random run, here the oldest). */
const MAX_ENTRIES = 1024

/**
 * How long Chromium caches a preflight answer, from its `Access-Control-Max-Age` value (as the
 * browser reads it: trimmed, several lines joined by `, `): a decimal integer, optionally
 * signed, leading zeros allowed; anything else (`10.5`, `0x10`, `10, 20`, a number beyond 64
 * bits), or no header, gives the 5 s default; 0 or less caches nothing; 7200 s and more give
 * 7200 s. Each rule checked in Chromium 156.
 *
 * @example
 * preflightMaxAge('600') // 600
 * preflightMaxAge(undefined) // 5
 * preflightMaxAge('86400') // 7200
 */
export function preflightMaxAge(value: string | undefined): number {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return PREFLIGHT_CACHE_DEFAULT_SECONDS
  const seconds = BigInt(value)
  // Chromium parses into an int64: a value that overflows it is unparsable, hence the default.
  if (seconds > INT64_MAX || seconds < -INT64_MAX - 1n) return PREFLIGHT_CACHE_DEFAULT_SECONDS
  if (seconds <= 0n) return 0
  return seconds >= BigInt(PREFLIGHT_CACHE_MAX_SECONDS) ? PREFLIGHT_CACHE_MAX_SECONDS : Number(seconds)
}

const INT64_MAX = 9_223_372_036_854_775_807n

/** What a passed preflight answer allows, as Chromium stores it. */
export interface PreflightCacheEntry {
  /** `Access-Control-Allow-Methods` items, case kept (methods compare case-sensitively). */
  readonly methods: ReadonlySet<string>
  /** `Access-Control-Allow-Headers` items, lowercased. */
  readonly headers: ReadonlySet<string>
  /**
   * Whether the preflight was made for a request with credentials: such an entry serves
   * credentialed requests, and its `*` items are not wildcards for any request.
   */
  readonly credentials: boolean
  /** When the entry expires, in the model's clock (milliseconds). */
  readonly expiresAt: number
}

/**
 * Which preflight an entry stands for, as Chromium keys it (services/network/cors/preflight_cache.cc):
 * the page's origin (`null` once tainted), the exact URL (`GURL::spec()`: query, an empty `?`
 * and the fragment included) and the network isolation key, here the top-level page's site
 * (a page of one origin framed by another site keeps entries of its own, measured in Chromium
 * 156). Chromium's fourth part, the target's IP address space, is the same for every call the
 * model makes without Local Network Access, so it is left out.
 */
export interface PreflightCacheKey {
  readonly origin: string
  readonly url: string
  /** The top-level page's schemeful site (`http://localhost`); @default the page origin's site */
  readonly topLevelSite?: string
}

/** A request about to be preflighted, as the cache judges it. */
export interface PreflightCacheQuery {
  readonly credentials: boolean
  /** The method as the browser sends it. */
  readonly method: string
  /** The request's CORS-unsafe header names, lowercased. */
  readonly unsafeHeaderNames: readonly string[]
}

/** Chromium's preflight cache, per browser profile; see {@link createPreflightCache}. */
export interface PreflightCache {
  /**
   * Whether a cached answer covers the request, so no preflight is sent. An expired entry, or
   * one that does not cover it, is removed (Chromium's "stale" and "hit-and-fail").
   */
  covers(key: PreflightCacheKey, query: PreflightCacheQuery): boolean
  /** Stores a passed preflight's answer (replacing the key's previous entry). */
  store(key: PreflightCacheKey, entry: PreflightCacheEntry): void
  /** Number of entries, expired ones included until they are looked up. */
  readonly size: number
  clear(): void
}

/**
 * Whether an entry lets the request skip its preflight, in Chromium's order
 * (`PreflightResult::EnsureAllowedRequest`): a credentialed request needs an entry made with
 * credentials; the method must be listed, safelisted, or covered by `*` (not for credentialed
 * entries); every unsafe header must be listed or covered by `*`, and `*` never covers
 * `Authorization` here (the cache uses the strict rule: a miss only costs a new preflight).
 */
function entryCovers(entry: PreflightCacheEntry, query: PreflightCacheQuery): boolean {
  if (query.credentials && !entry.credentials) return false
  // Case-sensitive, as the preflight check itself (`patch` is not covered by `PATCH`).
  const method = query.method
  const methodOk =
    entry.methods.has(method) || isSafelistedMethod(method) || (!entry.credentials && entry.methods.has('*'))
  if (!methodOk) return false
  const wildcard = !entry.credentials && entry.headers.has('*')
  return query.unsafeHeaderNames.every((name) =>
    wildcard ? name !== 'authorization' || entry.headers.has(name) : entry.headers.has(name),
  )
}

/**
 * A preflight cache as Chromium keeps one: keyed by the request's origin and its exact URL
 * (query included; another path, port or query is another entry), entries living
 * `Access-Control-Max-Age` seconds (5 s by default, at most 7200 s), none for URLs of 1024
 * characters or more.
 *
 * @example
 * const cache = createPreflightCache(() => Date.now())
 * cache.store({ origin, url }, { methods: new Set(['PUT']), headers: new Set(), credentials: false, expiresAt: Date.now() + 5000 })
 * cache.covers({ origin, url }, { credentials: false, method: 'PUT', unsafeHeaderNames: [] }) // true
 */
export function createPreflightCache(now: () => number): PreflightCache {
  const entries = new Map<string, PreflightCacheEntry>()
  const keyOf = (key: PreflightCacheKey) => `${key.origin} ${key.url} ${key.topLevelSite ?? ''}`
  return {
    covers(key, query) {
      const id = keyOf(key)
      const entry = entries.get(id)
      if (entry === undefined) return false
      if (entry.expiresAt > now() && entryCovers(entry, query)) return true
      entries.delete(id)
      return false
    },
    store(key, entry) {
      if (key.url.length >= MAX_KEY_LENGTH) return
      const id = keyOf(key)
      entries.delete(id)
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string)
      entries.set(id, entry)
    },
    get size() {
      return entries.size
    },
    clear() {
      entries.clear()
    },
  }
}

/**
 * The entry a passed preflight answer makes (Chromium's `PreflightResult`): its allowed methods
 * (case kept) and headers (lowercased), who it serves, and when it expires.
 *
 * @example
 * preflightCacheEntry({ headers: { 'access-control-allow-methods': 'PUT' } }, false, Date.now())
 */
export function preflightCacheEntry(
  answer: { readonly headers: HeadersInput },
  credentials: boolean,
  now: number,
): PreflightCacheEntry {
  const list = (name: string) =>
    (getHeader(answer.headers, name) ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
  return {
    methods: new Set(list('access-control-allow-methods')),
    headers: new Set(list('access-control-allow-headers').map((name) => name.toLowerCase())),
    credentials,
    expiresAt: now + preflightMaxAge(getHeader(answer.headers, 'access-control-max-age')) * 1000,
  }
}
