import { withoutSlowAnswer } from '../next/checks.mjs'

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
  // A minute of waiting saved: the slow answer runs once, in apps/next (the custom server).
  checks: withoutSlowAnswer('the 60 s answer is checked once, in apps/next (a minute per app otherwise)'),
}
