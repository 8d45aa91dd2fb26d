// Test project: integration (scrypt at the proxy's full cost, 32 MiB and about 100 ms a hash: seconds beside a busy process)
import { describe, expect, it } from 'vitest'
import { createSecretVerifier, SEAL_COST } from '../../../src/stand-ins/recordings/secret-verifier.js'

// The unit tests (secret-verifier.test.ts, secret-answers.test.ts) seal at a cheap cost; this one
// checks the cost every proxy seals at, which is what makes a leaked recording slow to guess.
describe('createSecretVerifier at its default cost', () => {
  it('seals at N = 2^15, r = 8, p = 1, and a fresh verifier matches the secret and no other', async () => {
    expect(SEAL_COST).toEqual({ ln: 15, r: 8, p: 1 })
    const sealed = await createSecretVerifier().seal('right')
    expect(sealed).toMatch(/^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/)
    const fresh = createSecretVerifier()
    expect(await fresh.matches(sealed, 'right')).toBe(true)
    expect(await fresh.matches(sealed, 'wrong')).toBe(false)
  })
})
