import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A backend without CORS headers: `/items` answers JSON, everything else 404. */
export async function startPlainBackend(): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/items')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ items: ['a', 'b'], auth: req.headers.authorization ?? null }))
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
