// Storybook 10 with its Vite builder: Storybook ignores `server.proxy` here, so the routes come
// in as a Vite plugin through `viteFinal`, merged into the config Storybook made.
import { corsDevProxy } from '@cors-dev-proxy/vite'
import { mergeConfig } from 'vite'
import { routes } from '../../routes.mjs'

/** @type {import('@storybook/react-vite').StorybookConfig} */
export default {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.js'],
  core: { disableTelemetry: true },
  viteFinal: (config) => mergeConfig(config, { plugins: [corsDevProxy(routes)] }),
}
