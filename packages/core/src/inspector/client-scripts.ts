import { controlPanel } from '../client/control-panel.js'
import { faultBadge } from '../client/fault-badge.js'
import { inspectorApp } from '../client/inspector-app.js'
import { overlayClient } from '../client/overlay-client.js'

/**
 * The browser scripts, as served: each client function's own source (compiled, self-contained)
 * called at once. Built once per process.
 */
export const CLIENT_SCRIPTS = Object.freeze({
  client: `// cors-dev-proxy overlay client (dev only; \`overlay: false\` removes it)\n(${overlayClient.toString()})();\n(${faultBadge.toString()})();\n`,
  inspector: `(${inspectorApp.toString()})();\n(${controlPanel.toString()})();\n`,
})

/** Where the dev server serves the overlay's client: what the adapters put in the page. */
export const OVERLAY_CLIENT_PATH = '/__cors-dev-proxy/client.js'
