import { corsDevProxy } from '@cors-dev-proxy/vite'
import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { routes } from '../routes.mjs'

export default defineConfig({ plugins: [reactRouter(), corsDevProxy(routes)] })
