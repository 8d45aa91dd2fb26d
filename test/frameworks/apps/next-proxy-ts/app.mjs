import { CHECKS } from '../next/checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Next 16 proxy.ts with Turbopack',
  // Plain `next dev`: the routes are served by proxy.js (createNextProxy), Next's own server in front.
  command: ['next', 'dev', '--turbopack', '--port', '{port}', '--hostname', '127.0.0.1'],
  hmrFile: 'app/page.jsx',
  ssrPath: '/ssr',
  // No missedPath: the hint about a server-side fetch('/api/…') that missed the proxy is the
  // custom server's (createNextServer wraps Next's fetch); proxy.ts has none.
  // Next runs proxy.ts for HTTP requests only: the ws route stays with the custom server (apps/next).
  websocket: false,
  // Its front end's app for the 40 s answer (createNextProxy under Next's own server).
  slowAnswer: true,
  checks: CHECKS,
}
