import { pluginCorsDevProxy } from '@cors-dev-proxy/rsbuild'
import { defineConfig } from '@rsbuild/core'
import { routes } from '../routes.mjs'

export default defineConfig({
  html: { title: 'Rsbuild' },
  plugins: [pluginCorsDevProxy(routes)],
})
