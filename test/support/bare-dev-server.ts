import { createServer, type Server } from 'node:http'
import { createDevServerProxy, resolveOptions } from '@cors-dev-proxy/core/adapter'
import { listen } from './servers.ts'

/** A bare dev server as {@link startBareDevServer} starts it. */
export interface BareDevServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string
  /** Closes the server, then the proxy (its recordings are on disk once it resolves). */
  close(): Promise<void>
}

/**
 * A dev server on `node:http` with the set-up every adapter shares (`createDevServerProxy`,
 * silent unless `options` say otherwise): what no route takes gets the HTML `page` returns for
 * the overlay client's path, which the adapters inject into a real app's page.
 *
 * @example
 * const dev = await startBareDevServer({ '/api': target }, {}, (client) => `<script src="${client}"></script>`)
 */
export async function startBareDevServer(
  routes: Parameters<typeof resolveOptions>[0],
  options: Parameters<typeof resolveOptions>[1],
  page: (overlayClient: string | undefined) => string,
): Promise<BareDevServer> {
  const server: Server = createServer()
  const proxy = createDevServerProxy(resolveOptions(routes, { log: 'silent', ...options }), { server })
  const html = page(proxy.overlayClient?.path)
  server.on('request', (req, res) =>
    proxy.middleware(req, res, () => {
      res.setHeader('content-type', 'text/html')
      res.end(html)
    }),
  )
  const front = await listen(server)
  return {
    url: front.url,
    async close() {
      await front.close()
      await proxy.close()
    },
  }
}
