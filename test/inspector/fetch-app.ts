import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import { createFetchHandler } from '@cors-dev-proxy/core'
import { getRequestListener } from '@hono/node-server'

/** A Fetch-handler app on @hono/node-server: the handler's routes, else a page with the overlay's script. */
export async function startFetchApp(
  routes: Routes,
  options?: CorsDevProxyOptions,
): Promise<{ origin: string; close(): Promise<void> }> {
  const proxy = createFetchHandler(routes, { log: 'silent', ...options })
  const page =
    '<!doctype html><title>fetch app</title><script type="module" src="/__cors-dev-proxy/client.js"></script><p>app</p>'
  const listener = getRequestListener(
    async (request) =>
      (await proxy(request)) ??
      new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  )
  const server: Server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await proxy.close()
    },
  }
}
