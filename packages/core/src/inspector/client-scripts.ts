import {
  CONTROL_PANEL,
  FAULT_BADGE,
  INSPECTOR_APP,
  OVERLAY_CLIENT,
} from '../client/client-scripts.generated.js'

/** The overlay's client, with the badge and without it; the inspector page's script. Built once per process. */
const OVERLAY = `// cors-dev-proxy overlay client (dev only; \`overlay: false\` removes it)\n(${OVERLAY_CLIENT})();\n`
const BADGE = `(${FAULT_BADGE})();\n`
const INSPECTOR = `(${INSPECTOR_APP})();\n(${CONTROL_PANEL})();\n`

/** The browser scripts of one proxy, as served and bundled. */
export interface ClientScripts {
  /** The overlay's client (`/__cors-dev-proxy/client.js`). */
  readonly client: string
  /** The inspector page's script (`/__cors-dev-proxy/inspector.js`). */
  readonly inspector: string
}

/**
 * The browser scripts, as served: each the source of one self-contained function (an entry of
 * client/ and the client files it imports, joined at build by `scripts/join-client-scripts.mjs`)
 * called at once. The "faults on" badge, which asks `GET /__cors-dev-proxy/control` on every
 * page, is in the client only when a route has live switches (`switches`): the dev server tells
 * the page what exists, and a page of a dev server without switches asks nothing.
 *
 * @example
 * const scripts = clientScripts({ switches: proxy.controls.routes.length > 0 })
 */
export function clientScripts(what: { readonly switches: boolean }): ClientScripts {
  return what.switches ? CLIENT_SCRIPTS : WITHOUT_BADGE
}

/** The scripts with every part: a dev server with live switches. */
export const CLIENT_SCRIPTS: ClientScripts = Object.freeze({ client: OVERLAY + BADGE, inspector: INSPECTOR })
const WITHOUT_BADGE: ClientScripts = Object.freeze({ client: OVERLAY, inspector: INSPECTOR })

/** Where the dev server serves the overlay's client: what the adapters put in the page. */
export const OVERLAY_CLIENT_PATH = '/__cors-dev-proxy/client.js'
