import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createSecretVerifier } from '../../../src/stand-ins/recordings/secret-verifier.js'

/**
 * New verifiers sealed at N = 2^4 instead of the proxy's 2^15: each seal and check costs
 * microseconds instead of 100 ms (seconds beside a busy process). secret-verifier-cost.test.ts
 * checks the proxy's cost, an integration test.
 */
const CHEAP = { ln: 4, r: 8, p: 1 }

describe('createSecretVerifier', () => {
  it('seals with a fresh salt, holding no plain value, encoding or unsalted hash of the secret', async () => {
    const verifier = createSecretVerifier(CHEAP)
    const material = 'hunter2-material'
    const [one, two] = [await verifier.seal(material), await verifier.seal(material)]
    expect(one).toMatch(/^scrypt\$ln=4,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/)
    expect(one).not.toBe(two)
    for (const form of [
      material,
      Buffer.from(material).toString('base64'),
      createHash('sha256').update(material).digest('hex'),
      createHash('sha256').update(material).digest('base64'),
    ]) {
      expect(one).not.toContain(form)
    }
  })

  it('matches the secret it was sealed from, on another process too, and no other', async () => {
    const sealed = await createSecretVerifier(CHEAP).seal('right')
    // A fresh verifier remembers nothing: it recomputes from the salt and cost in the text.
    const fresh = createSecretVerifier()
    expect(await fresh.matches(sealed, 'right')).toBe(true)
    expect(await fresh.matches(sealed, 'wrong')).toBe(false)
  })

  it('checks a pair once per process', async () => {
    const verifier = createSecretVerifier()
    const sealed = await createSecretVerifier(CHEAP).seal('right')
    const first = verifier.matches(sealed, 'right')
    // The same promise: the second request with that password costs no scrypt.
    expect(verifier.matches(sealed, 'right')).toBe(first)
    expect(await first).toBe(true)
  })

  it.each([
    [
      'a cost beyond the bounds (a hostile file)',
      `scrypt$ln=30,r=8,p=1$${'A'.repeat(22)}==$${'A'.repeat(43)}=`,
    ],
    ['memory beyond 256 MiB', `scrypt$ln=17,r=16,p=4$${'A'.repeat(22)}==$${'A'.repeat(43)}=`],
    ['another scheme', 'sha256$abc'],
    ['text edited into something else', 'scrypt$ln=15'],
  ])('refuses %s without computing it', async (_case, verifier) => {
    const started = performance.now()
    expect(await createSecretVerifier().matches(verifier, 'x')).toBe(false)
    // Refused on reading, this takes microseconds; computed, the cheapest of them (ln=17, r=16, p=4)
    // takes seconds on an idle machine. 5 s holds beside two busy processes on 2 cores.
    expect(performance.now() - started).toBeLessThan(5000)
  })
})
