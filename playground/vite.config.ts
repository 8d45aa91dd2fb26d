// The playground's Vite config: what a user writes, plus the playground's own small API.
import type { IncomingMessage } from 'node:http'
import { corsDevProxy } from '@cors-dev-proxy/vite'
import { defineConfig, type Plugin } from 'vite'
import { FRONT_TOKEN_ENV } from './server/http3-front.mjs'
import { createLabApi } from './server/lab-api.mjs'
import { createPlaygroundApi, playgroundEnv } from './server/playground-api.mjs'

// `pnpm playground` starts the backends first and passes their addresses here.
const backend = process.env.PLAYGROUND_BACKEND ?? 'http://localhost:3001'

/**
 * Behind `pnpm playground --http3`'s Caddy: takes off what Caddy added to a request (its token,
 * its X-Forwarded-*) before any listener, the proxy's included, sees it (see
 * packages/cli/src/serve/front-request.ts). Requests that did not come through Caddy pass as they are.
 */
function http3Front(): Plugin {
  return {
    name: 'cors-dev-proxy-playground-http3-front',
    async configureServer(server) {
      const token = process.env[FRONT_TOKEN_ENV]
      if (!token || !server.httpServer) return
      const { createFrontRestore } = await import('../packages/cli/dist/serve/front-request.js')
      const restore = createFrontRestore(token)
      server.httpServer.prependListener('request', (req: IncomingMessage) => restore(req))
    },
  }
}

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
  // The playground makes blocked calls on purpose and explains each in its own row: no overlay.
  plugins: [
    http3Front(),
    corsDevProxy({ '/api': { target: backend, ws: true } }, { overlay: false }),
    playgroundApi(),
  ],
  // Plain files, no dependencies to pre-bundle.
  optimizeDeps: { noDiscovery: true, include: [] },
  build: { rollupOptions: { input: ['index.html', 'bench.html', 'lab.html'] } },
})
