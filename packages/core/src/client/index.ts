/*
 * client/: what runs in the page. `jsonp.ts` is the public `@cors-dev-proxy/core/client` (below);
 * the rest are the browser scripts the dev server serves: the overlay (`overlay-client.ts`, with
 * its wrappers, failures, element and cards), the "faults on" badge (`fault-badge.ts`), the
 * inspector page (`inspector-app.ts`, with its list, detail, actions, live stream and
 * explanations) and its switches (`control-panel.ts`, `control-switches.ts`). Each script is an
 * entry and the client files it imports (types aside, nothing else), small top-level functions
 * that share a state object; `packages/core/scripts/join-client-scripts.mjs` joins them into the
 * source of one function each, written to `client-scripts.generated.ts` (committed: run it after
 * changing a script, a test fails while it is stale), which inspector/client-scripts.ts serves.
 */
export type { JsonpOptions } from './jsonp.js'
export { jsonp, withCallbackParam } from './jsonp.js'
