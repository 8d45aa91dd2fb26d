// The worker is started by this story's loader, not in .storybook/preview: the suite's shared
// checks run on the Proxy story, with no service worker in front of their requests.
import { mswLoader } from 'msw-storybook-addon/csf3'
import { Items } from './items.js'
// Written at the app's start by `cors-dev-proxy export-msw` (start.mjs).
import { handlers } from './mocks/api-handlers.ts'

export default { title: 'Recorded', component: Items, loaders: [mswLoader()] }

export const List = { parameters: { msw: { handlers } } }
