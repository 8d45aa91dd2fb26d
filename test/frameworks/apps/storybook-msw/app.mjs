import storybook from '../storybook/app.mjs'
import { CHECKS } from './checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...storybook,
  name: 'Storybook 10 with Vite and MSW',
  // export-msw writes the handlers and `msw init` the worker script, then `storybook dev` starts.
  command: ['node', 'start.mjs', '{port}'],
  base: 'storybook',
  // The shared checks run on apps/storybook's story, which starts no worker; the MSW story is
  // opened by the app's own check alone, in a browser context of its own.
  checks: CHECKS,
}
