import next from '../next/app.mjs'
import { withoutSlowAnswer } from '../next/checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...next,
  name: 'Next 15 with webpack',
  // Next 15's `next dev` bundles with webpack unless told otherwise; so does this custom server.
  command: ['node', 'server.mjs', '{port}', '--webpack'],
  set: 'previous',
  base: 'next',
  // A minute of waiting saved: the custom server is apps/next's, on an older Next.
  checks: withoutSlowAnswer(
    "the route's timeout is the core's, whichever Next runs behind the custom server: checked in apps/next",
  ),
}
