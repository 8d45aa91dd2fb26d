import { CHECKS } from './checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Next 16 with Turbopack',
  // The custom-server recipe: the proxy in front of Next, WebSocket routes included.
  command: ['node', 'server.mjs', '{port}'],
  hmrFile: 'app/page.jsx',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  // Its front end's app for the 40 s answer (the custom server's).
  slowAnswer: true,
  checks: CHECKS,
}
