import { CHECKS } from '../next/checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Next 16 with webpack',
  // The custom-server recipe of apps/next, with `next({ webpack: true })` (`next dev --webpack`).
  command: ['node', '../next/server.mjs', '{port}', 'webpack'],
  hmrFile: 'app/page.jsx',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  checks: CHECKS,
}
