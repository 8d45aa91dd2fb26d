import { withoutSlowAnswer } from '../next/checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Next 16 with webpack',
  // The custom-server recipe of apps/next, with `next({ webpack: true })` (`next dev --webpack`).
  command: ['node', '../next/server.mjs', '{port}', 'webpack'],
  hmrFile: 'app/page.jsx',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  // A minute of waiting saved: the custom server is apps/next's, on another bundler.
  checks: withoutSlowAnswer(
    "the route's timeout is the core's, whichever bundler Next runs: checked in apps/next, the same custom server",
  ),
}
