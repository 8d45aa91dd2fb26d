// The playground's Vite config: what a user writes, plus the playground's own small API.
import { corsDevProxy } from '@cors-dev-proxy/vite'
import { defineConfig, type Plugin } from 'vite'
import { createLabApi } from './server/lab-api.mjs'
import { createPlaygroundApi, playgroundEnv } from './server/playground-api.mjs'

// `pnpm playground` starts the backends first and passes their addresses here.
const backend = process.env.PLAYGROUND_BACKEND ?? 'http://localhost:3001'

function playgroundApi(): Plugin {
  return {
    name: 'cors-dev-proxy-playground-api',
    configureServer(server) {
      server.middlewares.use(createPlaygroundApi(playgroundEnv))
      server.middlewares.use(createLabApi())
    },
  }
}

export default defineConfig({
  plugins: [corsDevProxy({ '/api': { target: backend, ws: true } }), playgroundApi()],
  // Plain files, no dependencies to pre-bundle.
  optimizeDeps: { noDiscovery: true, include: [] },
  build: { rollupOptions: { input: ['index.html', 'bench.html', 'lab.html'] } },
})
