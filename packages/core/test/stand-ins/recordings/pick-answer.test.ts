import { describe, expect, it } from 'vitest'
import type { RecordedAnswer } from '../../../src/stand-ins/recordings/recording-format.js'
import { pickAnswer, type SessionState } from '../../../src/stand-ins/recordings/session-order.js'

/*
 * The session rule on its own: which recorded answer a read or a write gets for a position.
 */

const answer = (seq: number | undefined, text: string): RecordedAnswer => ({
  status: 200,
  headers: [],
  body: { kind: 'text', text },
  chunks: undefined,
  recordedAt: '',
  seq,
})

const text = (state: SessionState, write: boolean, answers: RecordedAnswer[], writes: number[]) => {
  const picked = pickAnswer(state, write, 'file\n', answers, writes)
  return picked?.answer.body?.kind === 'text' ? picked.answer.body.text : undefined
}

const fresh = (): SessionState => ({ position: 0, served: new Map() })

describe('pickAnswer', () => {
  it('gives a read with nothing in its window the latest answer before the position', () => {
    // list(1) create(2) list(3) create(4): replayed create, create, then a list.
    const lists = [answer(1, 'none'), answer(3, 'one')]
    const creates = [answer(2, 'a'), answer(4, 'b')]
    const state = fresh()
    text(state, true, creates, [2, 4])
    text(state, true, creates, [2, 4])
    expect(state.position).toBe(4)
    expect(text(state, false, lists, [2, 4])).toBe('one')
  })

  it('gives a read with nothing before the position the first answer after it', () => {
    // create(1) list(2): a list replayed before any create.
    expect(text(fresh(), false, [answer(2, 'one')], [1])).toBe('one')
  })

  it('moves the position to the write answer served, in the order recorded', () => {
    const state = fresh()
    const deletes = [answer(5, 'first'), answer(9, 'second')]
    expect(text(state, true, deletes, [5, 9])).toBe('first')
    expect(state.position).toBe(5)
    expect(text(state, true, deletes, [5, 9])).toBe('second')
    expect(text(state, true, deletes, [5, 9])).toBe('second')
    expect(state.position).toBe(9)
  })

  it('replays answers without a sequence number in order, then the last, whatever the position', () => {
    const state = { position: 7, served: new Map() }
    const old = [answer(undefined, '1'), answer(undefined, '2')]
    expect([
      text(state, false, old, [3]),
      text(state, false, old, [3]),
      text(state, false, old, [3]),
    ]).toEqual(['1', '2', '2'])
  })
})
