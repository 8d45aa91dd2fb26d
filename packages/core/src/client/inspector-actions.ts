import { el } from './inspector-dom.js'
import type { InspectorState, View } from './inspector-state.js'

/**
 * Sends the exchange again (`POST /replay/:id`) and says what the replay answered; disabled when
 * its request body was not kept.
 *
 * @example
 * head.append(replayButton(state, view))
 */
export function replayButton(state: InspectorState, view: View): HTMLButtonElement {
  const { base, replays } = state
  const replay = el('button', replays.get(view.id) ?? 'Replay') as HTMLButtonElement
  // A body that was not kept cannot be sent again (the server would refuse): said here, not asked.
  const hasBody = view.requestBytes > 0 || view.method === 'POST' || view.method === 'PUT'
  if (hasBody && view.requestBytes > 0 && (view.requestBody === undefined || view.bodiesTruncated)) {
    replay.disabled = true
    replay.title = 'Its request body was not kept: open the inspector before the call to replay it'
  }
  replay.addEventListener('click', () => {
    replay.disabled = true
    fetch(`${base}/replay/${view.id}`, { method: 'POST' })
      .then((answer) => answer.json())
      .then((answer: { status?: number; error?: string }) => {
        replays.set(view.id, answer.error ?? `Replayed: ${answer.status}`)
        state.render()
      })
      .catch(() => undefined)
      .finally(() => {
        replay.disabled = false
      })
  })
  return replay
}

/**
 * Writes the exchange's answer as a mock file of its route (`POST /mock`): the next call to its
 * path gets it.
 *
 * @example
 * head.append(mockButton(state, view))
 */
export function mockButton(state: InspectorState, view: View): HTMLButtonElement {
  const { base, mocked } = state
  const button = el('button', mocked.get(view.id) ?? 'Mock this answer') as HTMLButtonElement
  button.title = 'Write this answer as a mock file: the next request to this path is answered from it'
  button.addEventListener('click', () => {
    button.disabled = true
    fetch(`${base}/mock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: view.id }),
    })
      .then((answer) => answer.json())
      .then((answer: { file?: string; error?: string }) => {
        mocked.set(view.id, answer.error ?? `Mocked: ${answer.file ?? ''}`)
        state.render()
      })
      .finally(() => {
        button.disabled = false
      })
  })
  return button
}
