import { describe, expect, it } from 'vitest'
import type { RecordedAnswer, RecordingFile } from '../../../src/stand-ins/recordings/recording-format.js'
import { answersFor, prepareSecret, withAnswer } from '../../../src/stand-ins/recordings/secret-answers.js'
import { createSecretVerifier as createVerifier } from '../../../src/stand-ins/recordings/secret-verifier.js'

// New verifiers sealed at N = 2^4 instead of the proxy's 2^15: what is checked here is which
// answers go with which secret, not scrypt's cost (secret-verifier-cost.test.ts checks that).
const createSecretVerifier = () => createVerifier({ ln: 4, r: 8, p: 1 })

const answer = (status: number): RecordedAnswer => ({
  status,
  headers: [],
  body: undefined,
  chunks: undefined,
  recordedAt: '2026-01-01T00:00:00.000Z',
})
const secret = (material: string) => ({ kind: 'value' as const, material })
const empty: RecordingFile = { request: { method: 'POST', path: '/login', body: 'json {}' }, answers: [] }
const statuses = (matched: { answers: readonly RecordedAnswer[] } | undefined) =>
  matched?.answers.map(({ status }) => status)

describe('withAnswer and answersFor', () => {
  it('keeps each secret its own answers, and gives an unrecorded one none', async () => {
    const recorder = createSecretVerifier()
    let file = await withAnswer(empty, secret('wrong'), answer(401), recorder, 20)
    file = await withAnswer(file, secret('right'), answer(200), recorder, 20)
    file = await withAnswer(file, secret('right'), answer(201), recorder, 20)
    file = await withAnswer(file, undefined, answer(400), recorder, 20)
    expect(file.bySecret).toHaveLength(2)
    const replayer = createSecretVerifier()
    expect(statuses(await answersFor(file, secret('right'), replayer))).toEqual([200, 201])
    expect(statuses(await answersFor(file, secret('wrong'), replayer))).toEqual([401])
    expect(statuses(await answersFor(file, undefined, replayer))).toEqual([400])
    expect(await answersFor(file, secret('other'), replayer)).toBeUndefined()
  })

  it('answers any secret from the group recorded masked (an inspector HAR), after the verified ones', async () => {
    const verifier = createSecretVerifier()
    let file = await withAnswer(empty, { kind: 'masked' }, answer(200), verifier, 20)
    file = await withAnswer(file, secret('wrong'), answer(401), verifier, 20)
    expect(file.bySecret?.[0]?.verifier).toBe('masked')
    expect(statuses(await answersFor(file, secret('anything'), verifier))).toEqual([200])
    expect(statuses(await answersFor(file, secret('wrong'), verifier))).toEqual([401])
  })

  it('seals a new secret before the lock, and nothing for one the file has', async () => {
    const verifier = createSecretVerifier()
    const sealed = await prepareSecret(empty, secret('right'), verifier)
    expect(sealed).toMatch(/^scrypt\$/)
    const file = await withAnswer(empty, secret('right'), answer(200), verifier, 20, sealed)
    expect(file.bySecret?.[0]?.verifier).toBe(sealed)
    expect(await prepareSecret(file, secret('right'), verifier)).toBeUndefined()
    expect(await prepareSecret(file, undefined, verifier)).toBeUndefined()
    expect(await prepareSecret(file, { kind: 'masked' }, verifier)).toBeUndefined()
  })

  it('answers a version 1 file as it did: its answers whatever the secret', async () => {
    const old: RecordingFile = { ...empty, version: 1, answers: [answer(200)] }
    expect(statuses(await answersFor(old, secret('anything'), createSecretVerifier()))).toEqual([200])
    expect(
      await answersFor({ ...old, version: 2 }, secret('anything'), createSecretVerifier()),
    ).toBeUndefined()
  })
})
