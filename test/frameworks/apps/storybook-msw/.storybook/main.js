// apps/storybook's config, with public/ served at the root for MSW's mockServiceWorker.js
// (start.mjs puts it there).
import { corsDevProxy } from '@cors-dev-proxy/vite'
import { mergeConfig } from 'vite'
import { routes } from '../../routes.mjs'

/** @type {import('@storybook/react-vite').StorybookConfig} */
export default {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.js'],
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
  viteFinal: (config) => mergeConfig(config, { plugins: [corsDevProxy(routes)] }),
}
