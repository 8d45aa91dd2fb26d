import type { RecordedAnswer } from './recording-format.js'

/*
 * Which of a request's recorded answers a replay gives: the one the recorded session's state
 * calls for. The replayer keeps a position, the sequence number of the last write it replayed
 * (0 at start). A write (`POST`, `PUT`, `PATCH`, `DELETE`) replays its own answers in order,
 * then the last again, and moves the position to the answer served. A read picks among its
 * answers recorded after the position and before the route's next recorded write (the state
 * window), in order, then the last of the window again; with none there, the latest answer
 * recorded before the position, else the first after it. So "list, create, list" replays an
 * empty list however often the first list comes, and the created item after the create.
 *
 * Answers without a sequence number (files of version 1 and 2) replay as they always did: in
 * the order recorded, then the last again.
 */

/** A replayer's place in the recorded session, and how often each answer list was served. */
export interface SessionState {
  /** The sequence number of the last write replayed; 0 at start. */
  position: number
  /** Per answer list (file and secret group, and the window), the answers served so far. */
  readonly served: Map<string, number>
}

/** The answer picked, and its place among the candidates (for the log line). */
export interface PickedAnswer {
  readonly answer: RecordedAnswer
  readonly index: number
  readonly of: number
}

/** The next of `answers` in order, then the last again, counted under `counter`. */
function inOrder(
  state: SessionState,
  counter: string,
  answers: readonly RecordedAnswer[],
): PickedAnswer | undefined {
  const served = state.served.get(counter) ?? 0
  state.served.set(counter, served + 1)
  const index = Math.min(served, answers.length - 1)
  const answer = answers[index]
  return answer === undefined ? undefined : { answer, index, of: answers.length }
}

/** A read's answer: from the state window, else the latest before the position, else the first after it. */
function readAnswer(
  state: SessionState,
  counter: string,
  answers: readonly RecordedAnswer[],
  writes: readonly number[],
): PickedAnswer | undefined {
  const { position } = state
  const next = writes.find((seq) => seq > position) ?? Number.POSITIVE_INFINITY
  const sorted = [...answers].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
  const window = sorted.filter((answer) => (answer.seq ?? 0) > position && (answer.seq ?? 0) < next)
  if (window.length > 0) return inOrder(state, `${counter}\n${position}`, window)
  const before = sorted.filter((answer) => (answer.seq ?? 0) < position).at(-1)
  const answer = before ?? sorted.find((inner) => (inner.seq ?? 0) > position)
  return answer === undefined ? undefined : { answer, index: sorted.indexOf(answer), of: sorted.length }
}

/**
 * The answer to replay for a request of `method` whose matched answers are `answers` (one file
 * and secret group, named by `counter`), given the route's recorded writes; moves the position
 * when the request is a write.
 *
 * @example
 * const picked = pickAnswer(state, 'GET', 'GET-items.…json\n', answers, await index.writes())
 */
export function pickAnswer(
  state: SessionState,
  write: boolean,
  counter: string,
  answers: readonly RecordedAnswer[],
  writes: readonly number[],
): PickedAnswer | undefined {
  if (answers.length === 0) return undefined
  if (answers.some((answer) => answer.seq === undefined)) return inOrder(state, counter, answers)
  if (!write) return readAnswer(state, counter, answers, writes)
  const picked = inOrder(state, counter, answers)
  if (picked?.answer.seq !== undefined) state.position = picked.answer.seq
  return picked
}
