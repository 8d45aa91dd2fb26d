import { corsDevProxy } from '@cors-dev-proxy/vite'
import { defineConfig } from 'astro/config'
import { routes } from '../routes.mjs'

export default defineConfig({ vite: { plugins: [corsDevProxy(routes)] } })
