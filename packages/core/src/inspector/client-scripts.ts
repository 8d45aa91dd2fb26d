import { controlPanel } from '../client/control-panel.js'
import { faultBadge } from '../client/fault-badge.js'
import { inspectorApp } from '../client/inspector-app.js'
import { overlayClient } from '../client/overlay-client.js'
import type { ServedEndpoints } from '../client/served-endpoints.js'

/** Each client function's own source (compiled, self-contained), read once per process. */
const OVERLAY = overlayClient.toString()
const BADGE = faultBadge.toString()
const INSPECTOR = inspectorApp.toString()
const PANEL = controlPanel.toString()

/** The browser scripts of one proxy, as served and bundled. */
export interface ClientScripts {
  /** The overlay's client (`/__cors-dev-proxy/client.js`). */
  readonly client: string
  /** The inspector page's script (`/__cors-dev-proxy/inspector.js`). */
  readonly inspector: string
}

/**
 * The browser scripts of one proxy, as served: each client function called at once with the
 * description of the endpoints that exist (`served`), so a script never asks for one that does
 * not. The "faults on" badge, which asks `GET /__cors-dev-proxy/control` on every page, is in the
 * client only when a route has live switches: a page of a dev server without switches asks
 * nothing. Built once per proxy.
 *
 * @example
 * const scripts = clientScripts({ inspector: true, explain: true, control: false, mocks: false })
 */
export function clientScripts(served: ServedEndpoints): ClientScripts {
  const described = JSON.stringify(served)
  const badge = served.control ? `(${BADGE})(${described});\n` : ''
  return Object.freeze({
    client: `// cors-dev-proxy overlay client (dev only; \`overlay: false\` removes it)\n(${OVERLAY})(${described});\n${badge}`,
    inspector: `(${INSPECTOR})(${described});\n(${PANEL})(${described});\n`,
  })
}

/** Where the dev server serves the overlay's client: what the adapters put in the page. */
export const OVERLAY_CLIENT_PATH = '/__cors-dev-proxy/client.js'
