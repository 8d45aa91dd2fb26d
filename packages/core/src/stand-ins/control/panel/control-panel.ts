import type { ServedEndpoints } from '../../../client/served-endpoints.js'
import { loadControls } from './control-switches.js'

/**
 * The inspector page's live switches (served after the inspector's script, as the body of an
 * immediately invoked function, joined with `control-switches.ts` by
 * `scripts/join-client-scripts.mjs`): for each route with control options or
 * recordings, a target select (with `targets`), a faults switch (with faults) and a record switch
 * (with `record: true` or `replay: 'fallback'`), read from `GET /__cors-dev-proxy/control` and
 * changed by a same-origin JSON `POST` to it. Shows nothing when no route has any.
 */
export function controlPanel(served: ServedEndpoints): void {
  const panel = document.querySelector('#control') as HTMLElement | null
  if (panel === null) return
  if (served.control) loadControls(panel)
}
