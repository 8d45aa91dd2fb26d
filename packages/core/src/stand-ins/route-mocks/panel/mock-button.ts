import { el } from '../../../client/inspector-dom.js'
import type { InspectorState, View } from '../../../client/inspector-state.js'

/*
 * The route mocks' part of the inspector page (browser code, joined into the inspector's script
 * by scripts/join-client-scripts.mjs): the "Mock this answer" button of an exchange's detail, on
 * a route with `mocks`, which asks the mock endpoint (mock-endpoint.ts) to write the answer.
 */

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
