import { createServer } from 'node:http'
import { type CorsDevProxyConfig, createCorsDevProxy } from '@cors-dev-proxy/core'
import type { RunningProxy } from '../support/reverse-proxy.js'
import { listen } from '../support/servers.js'

/**
 * The dev proxy the exports are compared with. A stand-in for `cors-dev-proxy serve` until the
 * CLI has it: the core's proxy on a node:http server with WebSocket upgrades wired. Swap this one
 * function for the real `serve` child process (listening on a free port) when it exists; the
 * parity suite and the exports' live tests both start the dev proxy through it.
 *
 * @example
 * const dev = await startDevProxy({ routes: { '/api': backend.origin }, log: 'silent' })
 */
export async function startDevProxy(config: CorsDevProxyConfig): Promise<RunningProxy> {
  const proxy = createCorsDevProxy(config)
  const server = createServer((req, res) => proxy.middleware(req, res))
  server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head) || socket.destroy())
  server.on('connect', proxy.connect)
  const started = await listen(server)
  return {
    origin: started.url,
    output: () => '',
    async stop() {
      await proxy.close()
      await started.close()
    },
  }
}
