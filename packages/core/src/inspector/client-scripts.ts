import {
  CONTROL_PANEL,
  FAULT_BADGE,
  INSPECTOR_APP,
  OVERLAY_CLIENT,
} from '../client/client-scripts.generated.js'
import type { ServedEndpoints } from '../client/served-endpoints.js'

/** The browser scripts of one proxy, as served and bundled. */
export interface ClientScripts {
  /** The overlay's client (`/__cors-dev-proxy/client.js`). */
  readonly client: string
  /** The inspector page's script (`/__cors-dev-proxy/inspector.js`). */
  readonly inspector: string
}

/**
 * The browser scripts of one proxy, as served: each the source of one self-contained function (an
 * entry of client/ and the client files it imports, joined at build by
 * `scripts/join-client-scripts.mjs`) called at once with the description of the endpoints that
 * exist (`served`), so a script never asks for one that does not. The "faults on" badge, which
 * asks `GET /__cors-dev-proxy/control` on every page, is in the client only when a route has live
 * switches: a page of a dev server without switches asks nothing. Built once per proxy.
 *
 * @example
 * const scripts = clientScripts({ inspector: true, explain: true, control: false, mocks: false })
 */
export function clientScripts(served: ServedEndpoints): ClientScripts {
  const described = JSON.stringify(served)
  const badge = served.control ? `(${FAULT_BADGE})(${described});\n` : ''
  return Object.freeze({
    client: `// cors-dev-proxy overlay client (dev only; \`overlay: false\` removes it)\n(${OVERLAY_CLIENT})(${described});\n${badge}`,
    inspector: `(${INSPECTOR_APP})(${described});\n(${CONTROL_PANEL})(${described});\n`,
  })
}

/** Where the dev server serves the overlay's client: what the adapters put in the page. */
export const OVERLAY_CLIENT_PATH = '/__cors-dev-proxy/client.js'
