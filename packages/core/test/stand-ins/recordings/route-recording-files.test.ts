import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveRecordingsOptions } from '../../../src/stand-ins/recordings/options/resolve-recordings-options.js'
import {
  parseRecording,
  type RecordedAnswer,
  serializeRecording,
} from '../../../src/stand-ins/recordings/recording-format.js'
import {
  readRouteRecordings,
  replaceLastAnswer,
} from '../../../src/stand-ins/recordings/route-recording-files.js'

/** A route's recordings read and rewritten from outside a proxy, as `recordings verify` does. */

const folders: string[] = []
afterEach(async () => {
  for (let folder = folders.pop(); folder; folder = folders.pop())
    await rm(folder, { recursive: true, force: true })
})

const answer = (json: unknown): RecordedAnswer => ({
  status: 200,
  headers: [['content-type', 'application/json']],
  body: { kind: 'json', json },
  chunks: undefined,
  recordedAt: '2026-01-01T00:00:00.000Z',
})

async function routeFolder() {
  const base = await mkdtemp(join(tmpdir(), 'cdp-route-recordings-'))
  folders.push(base)
  const options = resolveRecordingsOptions({ dir: 'recordings' }, 'options.recordings')
  const folder = join(base, 'recordings', 'api-v1')
  await mkdir(folder, { recursive: true })
  return { base, options, folder }
}

describe('readRouteRecordings', () => {
  it("reads the route's folder through the recording parser, in name order, a broken file as undefined", async () => {
    const { base, options, folder } = await routeFolder()
    const request = { method: 'GET', path: '/users', body: undefined }
    await writeFile(join(folder, 'b.json'), serializeRecording({ request, answers: [answer([])] }))
    await writeFile(join(folder, 'a.json'), '{ broken')
    await writeFile(join(folder, 'notes.txt'), 'not a recording file')
    const { folder: read, files } = await readRouteRecordings('/api/v1', options, base)
    expect(read).toBe(folder)
    expect(files.map((one) => [one.file, one.recording?.request.path])).toEqual([
      [join(folder, 'a.json'), undefined],
      [join(folder, 'b.json'), '/users'],
    ])
  })

  it('finds no file in a folder that does not exist', async () => {
    const { base, options } = await routeFolder()
    expect((await readRouteRecordings('/other', options, base)).files).toEqual([])
  })
})

describe('replaceLastAnswer', () => {
  it('replaces the last answer only, masked, and keeps the rest of the file', async () => {
    const { options, folder } = await routeFolder()
    const file = join(folder, 'GET-users.json')
    const group = { verifier: 'masked', answers: [answer({ who: 'secret group' })] }
    const request = { method: 'GET', path: '/users', body: undefined }
    await writeFile(file, serializeRecording({ request, answers: [answer(1), answer(2)], bySecret: [group] }))
    const live = {
      status: 200,
      headers: [
        ['content-type', 'application/json'],
        ['set-cookie', 'sid=live-cookie; Path=/'],
      ] as [string, string][],
      body: Buffer.from('{"id":3,"accessToken":"live-token"}'),
    }
    expect(await replaceLastAnswer(file, live, options)).toBe(true)
    const text = await readFile(file, 'utf8')
    expect(text).not.toMatch(/live-cookie|live-token/)
    const recording = parseRecording(text)
    expect(recording?.answers.map((one) => one.body)).toEqual([
      { kind: 'json', json: 1 },
      { kind: 'json', json: { id: 3, accessToken: '[masked]' } },
    ])
    expect(recording?.bySecret).toEqual([group])
  })

  it('resolves false for a file with no answer to replace', async () => {
    const { options, folder } = await routeFolder()
    const file = join(folder, 'GET-empty.json')
    const text = serializeRecording({ request: { method: 'GET', path: '/', body: undefined }, answers: [] })
    await writeFile(file, text)
    const live = { status: 200, headers: [], body: Buffer.from('x') }
    expect(await replaceLastAnswer(file, live, options)).toBe(false)
    expect(await readFile(file, 'utf8')).toBe(text)
  })
})
