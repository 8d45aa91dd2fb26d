import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogSink } from '../../../../../test/support/servers.js'
import { createLogger } from '../../../src/log/logger.js'
import { updateFileAtomically } from '../../../src/stand-ins/atomic-file.js'
import { resolveRecordingsOptions } from '../../../src/stand-ins/recordings/options/resolve-recordings-options.js'
import { recordedAnswer } from '../../../src/stand-ins/recordings/recorded-answer.js'
import {
  parseRecording,
  type RecordedAnswer,
  serializeRecording,
} from '../../../src/stand-ins/recordings/recording-format.js'
import { requestKey } from '../../../src/stand-ins/recordings/recording-key.js'
import { createRecordingStore } from '../../../src/stand-ins/recordings/recording-store.js'

const folders: string[] = []
afterEach(async () => {
  for (let folder = folders.pop(); folder; folder = folders.pop())
    await rm(folder, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cdp-recordings-'))
  folders.push(folder)
  return folder
}

async function storeIn(dir: string, extra: Record<string, unknown> = {}) {
  const sink = captureLogSink()
  const options = resolveRecordingsOptions({ dir, ...extra }, 'options.recordings')
  return { store: createRecordingStore(options, createLogger('info', sink), process.cwd()), sink, options }
}

const answer = (text: string): RecordedAnswer => ({
  status: 200,
  headers: [['content-type', 'text/plain']],
  body: { kind: 'text', text },
  chunks: undefined,
  recordedAt: '2026-01-01T00:00:00.000Z',
})

const get = (path: string) => requestKey({ method: 'GET', path, body: undefined, contentType: undefined })

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()
}

describe('the recording file', () => {
  it('is written with a fixed key order and sorted headers, and reads back the same', () => {
    const file = {
      request: { method: 'GET', path: '/users?a=1', body: undefined },
      answers: [
        {
          status: 200,
          headers: [
            ['x-b', '2'],
            ['content-type', 'application/json'],
          ] as [string, string][],
          body: { kind: 'json' as const, json: { z: 1, a: { y: 2, b: 3 } } },
          chunks: undefined,
          recordedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    }
    const text = serializeRecording(file)
    expect(text).toBe(serializeRecording(parseRecording(text) ?? file))
    expect(text.indexOf('"content-type"')).toBeLessThan(text.indexOf('"x-b"'))
    // A JSON body keeps the keys in the order the backend sent them, at every depth.
    expect(text.indexOf('"z"')).toBeLessThan(text.indexOf('"a"'))
    expect(text.indexOf('"y"')).toBeLessThan(text.indexOf('"b"'))
    expect(Object.keys(JSON.parse(text))).toEqual(['version', 'request', 'answers'])
    expect(text.endsWith('}\n')).toBe(true)
  })

  it('reads a file edited into something else as no recording', () => {
    expect(parseRecording('not json')).toBeUndefined()
    expect(parseRecording('{"request":1}')).toBeUndefined()
  })

  it('masks the inspector secrets and the names added, keeps bodies as JSON, text or base64', () => {
    const rules = { mask: true, maskNames: ['x-tenant', 'pin'] }
    const seen = (type: string, body: Buffer, extra: [string, string][] = []) =>
      recordedAnswer(
        {
          status: 200,
          headers: [
            ['Content-Type', type],
            ['Set-Cookie', 'sid=abc; Path=/'],
            ['X-Tenant', 'acme'],
            ['Date', 'x'],
            ...extra,
          ],
          chunks: [[body, 1]],
          headAt: 0,
        },
        rules,
      )
    const json = seen('application/json', Buffer.from('{"token":"t0k","pin":"1234","name":"ada"}'))
    const text = JSON.stringify(json)
    expect(text).not.toMatch(/abc|acme|t0k|1234/)
    expect(json.body).toEqual({ kind: 'json', json: { token: '[masked]', pin: '[masked]', name: 'ada' } })
    expect(json.headers.map(([name]) => name)).not.toContain('date')
    expect(seen('text/plain', Buffer.from('hello')).body).toEqual({ kind: 'text', text: 'hello' })
    expect(seen('image/png', Buffer.from([0xff, 0xfe, 0x00])).body).toEqual({
      kind: 'base64',
      base64: '//4A',
    })
    expect(seen('text/plain', Buffer.from('hi'), [['Content-Encoding', 'gzip']]).body?.kind).toBe('base64')
  })

  it('keeps a JSON body as data in the order sent, or as text when data would not write back as sent', () => {
    const body = (text: string) =>
      recordedAnswer(
        {
          status: 200,
          headers: [['content-type', 'application/json']],
          chunks: [[Buffer.from(text), 1]],
          headAt: 0,
        },
        { mask: true, maskNames: [] },
      ).body
    const spaced = '{ "z": 1,\n  "a": { "y": [2, 3], "b": "x y" } }'
    const data = body(spaced)
    expect(data?.kind).toBe('json')
    expect(JSON.stringify(data?.kind === 'json' ? data.json : undefined)).toBe(
      '{"z":1,"a":{"y":[2,3],"b":"x y"}}',
    )
    // An object lists integer-like keys first; 1.0 and \u00e9 would come back as 1 and é.
    for (const text of ['{"b":1,"2":3}', '{"price":1.0}', '{"name":"\\u00e9"}']) {
      expect(body(text)).toEqual({ kind: 'text', text })
    }
  })

  it('keeps an event stream as its pieces with their gaps', () => {
    const recorded = recordedAnswer(
      {
        status: 200,
        headers: [['content-type', 'text/event-stream']],
        chunks: [
          [Buffer.from('data: 1\n\n'), 110],
          [Buffer.from('data: 2\n\n'), 160],
        ],
        headAt: 100,
      },
      { mask: true, maskNames: [] },
    )
    expect(recorded.chunks).toEqual([
      { after: 10, text: 'data: 1\n\n' },
      { after: 50, text: 'data: 2\n\n' },
    ])
  })
})

describe('createRecordingStore', () => {
  it('appends the answers of one request to its file in order, and the file is there after flush', async () => {
    const dir = await tempDir()
    const { store } = await storeIn(dir)
    const key = get('/users')
    store.append('/api', key, 'GET', answer('one'))
    await store.flush()
    store.append('/api', key, 'GET', answer('two'))
    await store.flush()
    const recording = await store.read('/api', key)
    expect(recording?.answers.map((one) => one.body)).toEqual([
      { kind: 'text', text: 'one' },
      { kind: 'text', text: 'two' },
    ])
    expect(await filesUnder(dir)).toEqual([`api${sep}${key.fileName}`])
  })

  it('loses nothing when two stores (two dev servers) append to the same file at once', async () => {
    const dir = await tempDir()
    const [a, b] = [await storeIn(dir, { maxAnswers: 1000 }), await storeIn(dir, { maxAnswers: 1000 })]
    const key = get('/shared')
    for (let index = 0; index < 40; index++) {
      a.store.append('/api', key, 'GET', answer(`a${index}`))
      b.store.append('/api', key, 'GET', answer(`b${index}`))
    }
    await Promise.all([a.store.flush(), b.store.flush()])
    const texts = (await a.store.read('/api', key))?.answers.map((one) => (one.body as { text: string }).text)
    expect(texts).toHaveLength(80)
    expect(new Set(texts).size).toBe(80)
    // Each writer's answers in its own order.
    const fromA = texts?.filter((text) => text.startsWith('a'))
    expect(fromA).toEqual(Array.from({ length: 40 }, (_, index) => `a${index}`))
    // No temp file or lock left behind.
    expect(await filesUnder(dir)).toEqual([`api${sep}${key.fileName}`])
  })

  it('keeps the last maxAnswers answers', async () => {
    const dir = await tempDir()
    const { store } = await storeIn(dir, { maxAnswers: 2 })
    const key = get('/x')
    for (const text of ['1', '2', '3']) {
      store.append('/api', key, 'GET', answer(text))
      await store.flush()
    }
    expect(
      (await store.read('/api', key))?.answers.map((one) => (one.body as { text: string }).text),
    ).toEqual(['2', '3'])
  })

  it('writes only inside its folder, and stops at maxFiles, saying so once, for 10,000 distinct queries and hostile paths', async () => {
    const dir = await tempDir()
    const { store, sink } = await storeIn(join(dir, 'recordings'), { maxFiles: 50 })
    const hostile = ['/../../escape', '/a\u0000b', `/${'y'.repeat(5000)}`, '/..%2f..%2fetc', '/..\\..\\win']
    for (const path of hostile) store.append('/api', get(path), 'GET', answer('h'))
    await store.flush()
    for (let index = 0; index < 10_000; index++)
      store.append('/api', get(`/search?q=${index}`), 'GET', answer('q'))
    await store.flush()
    const files = await filesUnder(dir)
    expect(files).toHaveLength(50)
    for (const file of files) {
      expect(resolve(dir, file).startsWith(join(dir, 'recordings', 'api') + sep)).toBe(true)
      expect(file).not.toContain('\u0000')
    }
    const stops = sink.lines.filter((line) => line.message.includes('recording stopped'))
    expect(stops).toHaveLength(1)
    expect(stops[0]?.message).toContain('holds 50 files (recordings.maxFiles)')
  })

  it('names the closest recording of a request', async () => {
    const dir = await tempDir()
    const { store } = await storeIn(dir)
    store.append('/api', get('/users/1'), 'GET', answer('u'))
    store.append('/api', get('/orders'), 'GET', answer('o'))
    await store.flush()
    expect(await store.closest('/api', 'GET', '/users/2')).toContain(get('/users/1').fileName)
  })
})

describe('updateFileAtomically', () => {
  it('takes over a lock left by a process that died, and leaves no temp file', async () => {
    const dir = await tempDir()
    const file = join(dir, 'a.json')
    await writeFile(`${file}.lock`, '')
    const { utimes } = await import('node:fs/promises')
    const old = new Date(Date.now() - 60_000)
    await utimes(`${file}.lock`, old, old)
    expect(await updateFileAtomically(file, (current) => `${current ?? ''}x`)).toBe(true)
    expect(await readFile(file, 'utf8')).toBe('x')
    expect(await readdir(dir)).toEqual(['a.json'])
  })
})
