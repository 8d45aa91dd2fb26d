/** @type {import('@storybook/react-vite').Preview} */
export default {
  parameters: { layout: 'centered' },
}
