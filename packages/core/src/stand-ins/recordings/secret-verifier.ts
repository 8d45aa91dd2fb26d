import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

/*
 * What a recording file keeps of a secret: a verifier, as a password database keeps one. scrypt
 * (RFC 7914) with a random salt per verifier and its cost written beside it,
 * `scrypt$ln=15,r=8,p=1$<salt>$<hash>`: no plain value, no unsalted hash, no encoding of it, and
 * each guess costs about 100 ms and 32 MiB, so a leaked file does not give the password away the
 * way a SHA-256 of it would. Any machine holding the file matches a request by recomputing the
 * hash with the stored salt: recordings stay shareable in git and usable in CI.
 *
 * The cost is paid only for a request that has a secret and whose key already has a file, once
 * per verifier and secret in a process: results are kept in memory. scrypt runs on libuv's
 * thread pool, so the event loop never waits for it.
 */

/** scrypt's cost parameters: N = 2^ln, block size r, parallelism p. */
export interface ScryptCost {
  readonly ln: number
  readonly r: number
  readonly p: number
}

/** The cost of a new verifier: N = 2^15, r = 8, p = 1 (32 MiB, about 100 ms). */
export const SEAL_COST: ScryptCost = Object.freeze({ ln: 15, r: 8, p: 1 })
const SALT_BYTES = 16
const HASH_BYTES = 32
/** Verifiers read from a file are recomputed only within these bounds (a file is shared: a hostile one must not stall the proxy). */
const MAX_LN = 17
const MAX_R = 16
const MAX_P = 4
const MAX_MEMORY = 256 * 1024 * 1024
/** How many verified pairs a process remembers (oldest forgotten first). */
const CACHE_SIZE = 1024

const FORMAT =
  /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]{16,}={0,2})\$([A-Za-z0-9+/]{16,}={0,2})$/

/** Seals and checks secrets against verifiers, remembering what it checked. */
export interface SecretVerifier {
  /** A new verifier of `material`, with a fresh salt. */
  seal(material: string): Promise<string>
  /** Whether `verifier` was sealed from `material`; `false` for a verifier it cannot read. Never rejects. */
  matches(verifier: string, material: string): Promise<boolean>
}

function hashOf(material: string, salt: Buffer, ln: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** ln
  return new Promise((resolve, reject) => {
    scrypt(material, salt, HASH_BYTES, { N, r, p, maxmem: 2 * 128 * N * r * p }, (error, hash) =>
      error === null ? resolve(hash) : reject(error),
    )
  })
}

async function recompute(verifier: string, material: string): Promise<boolean> {
  const parts = FORMAT.exec(verifier)
  if (parts === null) return false
  const [ln, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  if (ln < 1 || ln > MAX_LN || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return false
  if (128 * 2 ** ln * r * p > MAX_MEMORY) return false
  const expected = Buffer.from(parts[5] as string, 'base64')
  const hash = await hashOf(material, Buffer.from(parts[4] as string, 'base64'), ln, r, p).catch(
    () => undefined,
  )
  return hash !== undefined && hash.byteLength === expected.byteLength && timingSafeEqual(hash, expected)
}

/**
 * A verifier with its own memory of checked pairs (one per proxy: a process checks a secret
 * against a file's verifier once). `cost` is what new verifiers are sealed at: {@link SEAL_COST}
 * for every proxy; the unit tests seal cheaper ones, so that they do not wait on scrypt at its full
 * cost (one integration test checks the default). Reading a verifier takes the cost written in it.
 *
 * @example
 * const verifier = createSecretVerifier()
 * const sealed = await verifier.seal(material) // 'scrypt$ln=15,r=8,p=1$…$…'
 * await verifier.matches(sealed, material) // true
 */
export function createSecretVerifier(cost: ScryptCost = SEAL_COST): SecretVerifier {
  // Keyed by the verifier and a hash of the material: the plain secret is not kept longer than its request.
  const checked = new Map<string, Promise<boolean>>()
  const remember = (key: string, result: Promise<boolean>): Promise<boolean> => {
    if (checked.size >= CACHE_SIZE) checked.delete(checked.keys().next().value as string)
    checked.set(key, result)
    return result
  }
  const cacheKey = (verifier: string, material: string): string =>
    `${verifier}\n${createHash('sha256').update(material).digest('base64')}`
  return {
    async seal(material) {
      const salt = randomBytes(SALT_BYTES)
      const hash = await hashOf(material, salt, cost.ln, cost.r, cost.p)
      const verifier = `scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${salt.toString('base64')}$${hash.toString('base64')}`
      remember(cacheKey(verifier, material), Promise.resolve(true))
      return verifier
    },
    matches(verifier, material) {
      const key = cacheKey(verifier, material)
      return (
        checked.get(key) ??
        remember(
          key,
          recompute(verifier, material).catch(() => false),
        )
      )
    },
  }
}
