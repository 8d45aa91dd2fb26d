import { corsDevProxy } from '@cors-dev-proxy/vite'
import { sveltekit } from '@sveltejs/kit/vite'
import { defineConfig } from 'vite'
import { routes } from '../routes.mjs'

export default defineConfig({ plugins: [sveltekit(), corsDevProxy(routes)] })
