import next from '../next/app.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...next,
  name: 'Next 15 with webpack',
  // Next 15's `next dev` bundles with webpack unless told otherwise; so does this custom server.
  command: ['node', 'server.mjs', '{port}', '--webpack'],
  set: 'previous',
  base: 'next',
  // The 40 s answer runs in apps/next only (the same custom server).
  slowAnswer: undefined,
}
