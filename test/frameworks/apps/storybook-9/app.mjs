import storybook from '../storybook/app.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...storybook,
  name: 'Storybook 9 with Vite',
  set: 'previous',
  base: 'storybook',
}
