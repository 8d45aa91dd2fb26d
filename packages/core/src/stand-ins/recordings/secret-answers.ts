import {
  MASKED_SECRET,
  RECORDING_FORMAT,
  type RecordedAnswer,
  type RecordingFile,
  type SecretAnswers,
} from './recording-format.js'
import type { RequestSecret } from './request-secrets.js'
import type { SecretVerifier } from './secret-verifier.js'

/*
 * Which answers of a file belong to a request: those without a secret, or the group whose
 * verifier the request's secret matches. A wrong password recorded once and the right one
 * recorded once are two groups of one file, so each replays its own answer.
 */

/** At most this many secrets per file: a replay with a secret never recorded checks each once. */
export const MAX_SECRETS_PER_FILE = 10

/** The answers a request gets, and the group they came from (`''`: without a secret). */
export interface MatchedAnswers {
  readonly group: string
  readonly answers: readonly RecordedAnswer[]
}

/** The index of the group of `secret` in `groups`, or -1; checks verifiers one at a time, first recorded first. */
async function groupIndex(
  groups: readonly SecretAnswers[],
  secret: RequestSecret,
  verifier: SecretVerifier,
): Promise<number> {
  if (secret.kind === 'masked') return groups.findIndex((group) => group.verifier === MASKED_SECRET)
  for (const [index, group] of groups.entries()) {
    if (group.verifier === MASKED_SECRET) continue
    if (await verifier.matches(group.verifier, secret.material)) return index
  }
  return -1
}

/**
 * The answers of `file` for a request with `secret`: without one, the file's `answers`; with
 * one, its verified group, else the group recorded masked (an inspector HAR), else (a version 1
 * file, which did not tell secrets apart) the file's `answers`; `undefined` when none fits.
 *
 * @example
 * const matched = await answersFor(recording, key.secret, verifier)
 */
export async function answersFor(
  file: RecordingFile,
  secret: RequestSecret | undefined,
  verifier: SecretVerifier,
): Promise<MatchedAnswers | undefined> {
  if (secret === undefined) return { group: '', answers: file.answers }
  const groups = file.bySecret ?? []
  const index = await groupIndex(groups, secret, verifier)
  const group = groups[index] ?? groups.find((inner) => inner.verifier === MASKED_SECRET)
  if (group !== undefined) return { group: group.verifier, answers: group.answers }
  return (file.version ?? RECORDING_FORMAT) < 2 ? { group: '', answers: file.answers } : undefined
}

/**
 * The slow part of `withAnswer`, done before the file's lock is taken: checks `secret` against
 * the groups of `file` as read then (the results are remembered), and seals a new verifier
 * when none matches; `undefined` when there is nothing to seal.
 *
 * @example
 * const sealed = await prepareSecret(await store.read(prefix, key), key.secret, verifier)
 */
export async function prepareSecret(
  file: RecordingFile | undefined,
  secret: RequestSecret | undefined,
  verifier: SecretVerifier,
): Promise<string | undefined> {
  if (secret?.kind !== 'value') return undefined
  if ((await groupIndex(file?.bySecret ?? [], secret, verifier)) >= 0) return undefined
  return verifier.seal(secret.material)
}

/**
 * `file` with `answer` appended to the answers of `secret` (a new group when none verifies,
 * under `sealed` from `prepareSecret` or a verifier sealed now), keeping the last `maxAnswers`
 * of each and the last `MAX_SECRETS_PER_FILE` secrets.
 *
 * @example
 * const next = await withAnswer(existing, key.secret, answer, verifier, 20)
 */
export async function withAnswer(
  file: RecordingFile,
  secret: RequestSecret | undefined,
  answer: RecordedAnswer,
  verifier: SecretVerifier,
  maxAnswers: number,
  sealed?: string,
): Promise<RecordingFile> {
  const append = (answers: readonly RecordedAnswer[]) => [...answers, answer].slice(-maxAnswers)
  if (secret === undefined) return { ...file, answers: append(file.answers) }
  const groups = [...(file.bySecret ?? [])]
  const index = await groupIndex(groups, secret, verifier)
  const found = groups[index]
  if (found !== undefined) {
    groups[index] = { verifier: found.verifier, answers: append(found.answers) }
  } else {
    const fresh =
      secret.kind === 'masked' ? MASKED_SECRET : (sealed ?? (await verifier.seal(secret.material)))
    groups.push({ verifier: fresh, answers: [answer] })
  }
  return { ...file, bySecret: groups.slice(-MAX_SECRETS_PER_FILE) }
}
