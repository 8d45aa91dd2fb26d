import { describe, expect, it } from 'vitest'
import {
  parseRecording,
  type RecordingFile,
  serializeRecording,
} from '../../../src/stand-ins/recordings/recording-format.js'

const file: RecordingFile = {
  request: { method: 'GET', path: '/login', body: undefined },
  answers: [
    {
      status: 200,
      headers: [
        ['set-cookie', 'sid=[masked]; Path=/; HttpOnly'],
        ['content-type', 'text/plain'],
        ['set-cookie', 'theme=dark; Path=/'],
      ],
      body: { kind: 'text', text: 'ok' },
      chunks: undefined,
      recordedAt: '2026-12-02T00:00:00.000Z',
      seq: 1,
    },
  ],
}

describe('recording file headers', () => {
  it('writes a field sent twice as an array, in the order it came, and reads both lines back', () => {
    const text = serializeRecording(file)
    const written = JSON.parse(text).answers[0].headers
    expect(written).toEqual({
      'content-type': 'text/plain',
      'set-cookie': ['sid=[masked]; Path=/; HttpOnly', 'theme=dark; Path=/'],
    })
    expect(parseRecording(text)?.answers[0]?.headers).toEqual([
      ['content-type', 'text/plain'],
      ['set-cookie', 'sid=[masked]; Path=/; HttpOnly'],
      ['set-cookie', 'theme=dark; Path=/'],
    ])
  })

  it('writes a field sent once as a string, as files written before did', () => {
    const once = serializeRecording({
      ...file,
      answers: [{ ...file.answers[0]!, headers: [['set-cookie', 'a=1']] }],
    })
    expect(JSON.parse(once).answers[0].headers).toEqual({ 'set-cookie': 'a=1' })
  })

  it('skips values that are neither a string nor an array of strings', () => {
    const text = JSON.stringify({
      version: 3,
      request: { method: 'GET', path: '/' },
      answers: [{ status: 200, headers: { a: 1, b: ['x', 2, 'y'], c: null }, recordedAt: '' }],
    })
    expect(parseRecording(text)?.answers[0]?.headers).toEqual([
      ['b', 'x'],
      ['b', 'y'],
    ])
  })
})
