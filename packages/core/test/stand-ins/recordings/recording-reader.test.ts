import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type RecordingFile, serializeRecording } from '../../../src/stand-ins/recordings/recording-format.js'
import { createRecordingReader } from '../../../src/stand-ins/recordings/recording-reader.js'

/** A recording of one GET whose single answer carries `text` as its body. */
function recording(text: string): RecordingFile {
  return {
    request: { method: 'GET', path: '/items', body: undefined },
    answers: [
      {
        status: 200,
        headers: [['content-type', 'text/plain']],
        body: { kind: 'text', text },
        chunks: undefined,
        recordedAt: '2026-12-02T08:00:00.000Z',
      },
    ],
  }
}

const bodyOf = (file: RecordingFile | undefined) => {
  const body = file?.answers[0]?.body
  return body?.kind === 'text' ? body.text : undefined
}

describe('createRecordingReader', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cdp-recording-reader-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('parses a file once while it stays the same, and again once it changed', async () => {
    const file = join(dir, 'GET-items.json')
    await writeFile(file, serializeRecording(recording('first')))
    const read = createRecordingReader()
    const first = await read(file)
    expect(bodyOf(first)).toBe('first')
    // The same parsed object: the file was not read and parsed a second time.
    expect(await read(file)).toBe(first)
    // Replaced by a rename, as the store writes (another inode).
    await writeFile(`${file}.tmp`, serializeRecording(recording('second')))
    await rename(`${file}.tmp`, file)
    expect(bodyOf(await read(file))).toBe('second')
    // Edited in place, as by hand (another size and time).
    await writeFile(file, serializeRecording(recording('third, by hand')))
    expect(bodyOf(await read(file))).toBe('third, by hand')
  })

  it('reads a removed file as missing', async () => {
    const file = join(dir, 'GET-items.json')
    await writeFile(file, serializeRecording(recording('here')))
    const read = createRecordingReader()
    expect(bodyOf(await read(file))).toBe('here')
    await rm(file)
    expect(await read(file)).toBeUndefined()
  })

  it('keeps no large file parsed: its bodies are read each time', async () => {
    const file = join(dir, 'GET-large.json')
    await writeFile(file, serializeRecording(recording('x'.repeat(300 * 1024))))
    const read = createRecordingReader()
    const first = await read(file)
    expect(bodyOf(first)?.length).toBe(300 * 1024)
    expect(await read(file)).not.toBe(first)
  })
})
