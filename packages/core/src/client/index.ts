/*
 * client/: what runs in the page. `jsonp.ts` is the public `@cors-dev-proxy/core/client` (below);
 * the rest are the browser scripts the dev server serves: the overlay (`overlay-client.ts`, with
 * its wrappers, failures, element and cards), the inspector page (`inspector-app.ts`, with its
 * list, detail, actions, live stream and explanations). A stand-in's own part of the page is its
 * panel, browser code in `stand-ins/<name>/panel/`: the control's switches (`control-panel.ts`,
 * `control-switches.ts`) and "faults on" badge (`fault-badge.ts`), the route mocks' "Mock this
 * answer" button (`mock-button.ts`), the recordings' card and detail section for a call no
 * recording matched under `replay: 'only'` (`unmatched-card.ts`, `unmatched-detail.ts`, their
 * words in `unmatched-lines.ts`; the overlay reads the note off the page's 404 in
 * `overlay-unmatched.ts`). A route's `openapi` check shows in the overlay as a card per violation
 * the page's calls caused (`overlay-violations.ts`, the card in `violation-card.ts`, its words in
 * `violation-lines.ts`) and in the inspector as a mark, a filter and the detail's "OpenAPI"
 * section (`inspector-violations.ts`). Each script is an entry and the browser files it imports
 * (client/ and the panels, types aside, nothing else), small top-level functions that share a
 * state object; `packages/core/scripts/join-client-scripts.mjs` joins them into the
 * source of one function each, written to `client-scripts.generated.ts` (committed: run it after
 * changing a script, a test fails while it is stale), which inspector/client-scripts.ts serves.
 */
export type { JsonpOptions } from './jsonp.js'
export { jsonp, withCallbackParam } from './jsonp.js'
