// Storybook 10 with its webpack builder. The dev server is Storybook's own, not
// webpack-dev-server: the proxy joins it through .storybook/middleware.js, and the overlay joins
// each story's iframe through previewHead.
import { storybookPreviewHead } from '@cors-dev-proxy/webpack'

/** @type {import('@storybook/react-webpack5').StorybookConfig} */
export default {
  framework: '@storybook/react-webpack5',
  stories: ['../src/**/*.stories.js'],
  core: { disableTelemetry: true },
  previewHead: storybookPreviewHead,
}
