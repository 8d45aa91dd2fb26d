/** @type {import('@storybook/react-webpack5').Preview} */
export default {
  parameters: { layout: 'centered' },
}
