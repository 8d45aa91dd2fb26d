import storybook from '../storybook-webpack/app.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...storybook,
  name: 'Storybook 9 with webpack',
  set: 'previous',
  base: 'storybook-webpack',
}
