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
