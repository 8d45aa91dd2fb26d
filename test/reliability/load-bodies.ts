import { createHash } from 'node:crypto'

/*
 * Everything the load test sends or expects is a pure function of a seed, so the target and the
 * clients derive the same bytes independently: the target answers `bodyFor(seed, size)`, the
 * client computes the same slice and compares. Nothing here comes from the proxy's sources: the
 * expected JSONP script is written out from the documented format (docs/guide/jsonp.md), not imported.
 */

/** Largest body the load test sends or asks for. */
export const MAX_BODY = 256 * 1024

/** Mulberry32: a small seeded PRNG, uniform in [0, 1). Deterministic across runs and processes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** An integer in [min, max], from `random`. */
export function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1))
}

/** 1 MiB of seeded pseudo-random bytes: every body is a slice of it. */
const POOL = (() => {
  const random = seededRandom(0x10ad)
  const words = new Uint32Array((4 * MAX_BODY) / 4)
  for (let i = 0; i < words.length; i++) words[i] = Math.floor(random() * 4_294_967_296)
  return Buffer.from(words.buffer)
})()

/**
 * The body of `size` bytes for `seed`: a slice of the pool at an offset derived from the seed, so
 * two requests of the same size get different bytes and an answer delivered to the wrong request
 * fails the comparison. The slice shares the pool's memory: never write into it.
 */
export function bodyFor(seed: number, size: number): Buffer {
  const start = (Math.imul(seed >>> 0, 2_654_435_761) >>> 0) % (POOL.length - size + 1)
  return POOL.subarray(start, start + size)
}

/** The seed of the answer to an upload of `seed`, so the two directions never carry the same bytes. */
export function replySeed(seed: number): number {
  return (seed ^ 0x5bd1e995) >>> 0
}

/** Hex SHA-256 of a body. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** The event stream the target writes for `seed`: 3 to 8 events (HTML standard, section 9.2). */
export function eventsFor(seed: number): string[] {
  const random = seededRandom(seed)
  const count = between(random, 3, 8)
  return Array.from({ length: count }, (_, index) => {
    const data = bodyFor(seed + index, between(random, 1, 512)).toString('base64')
    return `id: ${index + 1}\nevent: load\ndata: ${data}\n\n`
  })
}

/**
 * The JSON the target answers on the JSONP route for `seed`, written compactly (as
 * `JSON.stringify` writes it) so the proxy's parse and re-serialization gives the same text.
 * It carries U+2028 and U+2029, which the JSONP script must escape.
 */
export function jsonFor(seed: number): string {
  const random = seededRandom(seed)
  const items = Array.from({ length: between(random, 1, 40) }, (_, index) => ({
    id: index,
    value: bodyFor(seed + index, between(random, 0, 48)).toString('hex'),
  }))
  return JSON.stringify({ seed, note: 'line\u2028paragraph\u2029end', items })
}

/** The JSONP callback name a request for `seed` uses. */
export function callbackFor(seed: number): string {
  return `load.cb_${seed.toString(36)}`
}

/** The script a JSONP answer must be (docs/guide/jsonp.md): the JSON with U+2028/U+2029 escaped. */
export function expectedJsonp(callback: string, json: string): string {
  const safe = json.replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029')
  return `/**/ typeof ${callback} === 'function' && ${callback}(${safe});`
}

/** The binary messages a WebSocket client sends for `seed`: 2 to 8 of up to 32 KiB. */
export function messagesFor(seed: number): Buffer[] {
  const random = seededRandom(seed)
  return Array.from({ length: between(random, 2, 8) }, (_, index) =>
    bodyFor(seed * 7 + index, between(random, 0, 32 * 1024)),
  )
}
