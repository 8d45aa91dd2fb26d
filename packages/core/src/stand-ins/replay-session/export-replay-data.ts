import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { MOCKS_DEFAULTS } from '../../config/defaults.js'
import type { ResolvedForwardRoute } from '../../config/resolved-route.js'
import type { ResolvedRecordingsOptions } from '../recordings/options/resolve-recordings-options.js'
import { parseRecording } from '../recordings/recording-format.js'
import { routeFolderOf } from '../route-folder.js'
import { compareMockKeys, mockKeyOf } from '../route-mocks/mock-file-name.js'
import {
  isMockAnswerProblem,
  mockAnswerOf,
  type ResolvedMockAnswer,
} from '../route-mocks/options/route-mock-answer.js'
import type { ReplayData, ReplayMock, ReplayRecording } from './replay-data.js'

/*
 * What `cors-dev-proxy export-msw` reads, on Node: a route's recording files and mock files as
 * the data of a replay session (replay-data.ts), in a stable order (files by name, mocks the
 * most specific first) so two exports of the same files are the same bytes. What cannot travel
 * is left out and named in `notes`: answers grouped by a secret (only the proxy verifies them),
 * the config's mock functions and a `match` function (the caller passes it to the session).
 */

/** The data, and what was left out (one sentence each, for the module's comments). */
export interface ExportedReplayData {
  readonly data: ReplayData
  readonly notes: readonly string[]
  /** The folders read, absolute. */
  readonly folders: { readonly recordings: string; readonly mocks: string | undefined }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

async function jsonFiles(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[])
  return names.filter((name) => name.endsWith('.json')).sort()
}

async function readRecordings(folder: string, notes: string[]) {
  const recordings: ReplayRecording[] = []
  const writes: number[] = []
  for (const file of await jsonFiles(folder)) {
    const recording = parseRecording(await readFile(join(folder, file), 'utf8').catch(() => ''))
    if (recording === undefined) {
      notes.push(`${file} is not a recording file: left out.`)
      continue
    }
    const secret = (recording.bySecret ?? []).reduce((sum, group) => sum + group.answers.length, 0)
    if (secret > 0) {
      notes.push(
        `${file}: ${secret} answer(s) to ${recording.request.method} ${recording.request.path} recorded with a secret (a password, credentials) are left out; only the proxy verifies a secret.`,
      )
    }
    if (recording.answers.length === 0) continue
    const { method, path, body, headers } = recording.request
    recordings.push({
      file,
      method,
      path,
      ...(body === undefined ? {} : { body }),
      ...(headers === undefined || Object.keys(headers).length === 0 ? {} : { headers }),
      answers: recording.answers.map(({ seq, status, headers, body, chunks, recordedAt }) => ({
        ...(seq === undefined ? {} : { seq }),
        status,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(chunks === undefined ? {} : { chunks }),
        recordedAt,
      })),
    })
    if (WRITES.has(method.toUpperCase())) {
      for (const answer of recording.answers) if (answer.seq !== undefined) writes.push(answer.seq)
    }
  }
  return { recordings, writes: writes.sort((a, b) => a - b) }
}

function mockOf(key: string, source: string, answer: ResolvedMockAnswer): ReplayMock {
  const text = answer.body.toString('utf8')
  const body = Buffer.from(text, 'utf8').equals(answer.body)
    ? { text }
    : { base64: answer.body.toString('base64') }
  return { key, source, status: answer.status, headers: answer.headers, body }
}

async function readMockFiles(folder: string, root: string, notes: string[]): Promise<ReplayMock[]> {
  const names = await readdir(folder).catch(() => [] as string[])
  const keyed = names.flatMap((name) => {
    const key = mockKeyOf(name)
    return key === undefined ? [] : [{ key, name }]
  })
  keyed.sort((a, b) => compareMockKeys(a.key, b.key) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const mocks: ReplayMock[] = []
  for (const { key, name } of keyed) {
    const source = relative(root, join(folder, name)).split('\\').join('/')
    let answer: ReturnType<typeof mockAnswerOf>
    try {
      answer = mockAnswerOf(JSON.parse(await readFile(join(folder, name), 'utf8')))
    } catch {
      answer = { field: '', problem: 'is not JSON' }
    }
    if (isMockAnswerProblem(answer)) notes.push(`${source} cannot be used (${answer.problem}): left out.`)
    else mocks.push(mockOf(key, source, answer))
  }
  return mocks
}

/**
 * Reads `route`'s recordings (under `recordings.dir`, relative to `root`) and mocks as a
 * replay session's data.
 *
 * @example
 * const { data, notes } = await exportReplayData(route, resolved.recordings, process.cwd())
 */
export async function exportReplayData(
  route: ResolvedForwardRoute,
  recordingsOptions: ResolvedRecordingsOptions,
  root: string,
): Promise<ExportedReplayData> {
  const notes: string[] = []
  const recordingsFolder = resolve(root, recordingsOptions.dir, routeFolderOf(route.prefix))
  const { recordings, writes } = await readRecordings(recordingsFolder, notes)
  const mocks: ReplayMock[] = []
  let mocksFolder: string | undefined
  if (route.mocks !== undefined) {
    const dir = route.mocks.dir
    mocksFolder = resolve(root, dir ?? join(MOCKS_DEFAULTS.dir, routeFolderOf(route.prefix)))
    mocks.push(...(await readMockFiles(mocksFolder, root, notes)))
    for (const rule of route.mocks.rules) {
      if (typeof rule.answer === 'function') {
        notes.push(`mocks key '${rule.key}' is a function: left out (it runs in the proxy only).`)
      } else mocks.push(mockOf(rule.key, `'${rule.key}'`, rule.answer))
    }
  }
  if (route.match?.test !== undefined) {
    notes.push('match is a function: pass it to createHandlers({ match }) to match as the proxy does.')
  }
  const match = {
    ignoreQuery: [...(route.match?.ignoreQuery ?? [])],
    matchHeaders: [...(route.match?.matchHeaders ?? [])],
    body: route.match?.body ?? 'exact',
  } as const
  return {
    data: {
      prefix: route.prefix,
      maskNames: [...recordingsOptions.maskNames],
      maxGap: recordingsOptions.maxGap,
      match,
      mocks,
      recordings,
      writes,
    },
    notes,
    folders: { recordings: recordingsFolder, mocks: mocksFolder },
  }
}
