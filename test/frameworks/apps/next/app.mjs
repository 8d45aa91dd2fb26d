import { CHECKS } from './checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Next 16 with Turbopack',
  // The custom-server recipe: the proxy in front of Next, WebSocket routes included.
  command: ['node', 'server.mjs', '{port}'],
  hmrFile: 'app/page.jsx',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  checks: CHECKS,
}
