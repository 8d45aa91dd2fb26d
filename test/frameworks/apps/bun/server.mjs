// Bun, as its users serve: Bun.serve with the proxy's Fetch handler first and the page after it;
// a `ws` route's upgrade accepted by server.upgrade and bridged to the target's WebSocket.
import { createFetchHandler } from '@cors-dev-proxy/core'
import { routes } from '../routes.mjs'

const port = Number(process.argv[2] ?? 3000)
const page = await Bun.file(new URL('./index.html', import.meta.url)).text()
const proxy = createFetchHandler(routes)

const server = Bun.serve({
  port,
  hostname: '127.0.0.1',
  async fetch(request, server) {
    // The client's address, for X-Forwarded-For (xfwd): a Request does not carry it.
    const info = { remoteAddress: server.requestIP(request)?.address }
    const bridge = await proxy.webSocket(request, info)
    if (bridge instanceof Response) return bridge
    if (bridge !== undefined) {
      if (server.upgrade(request, { data: bridge })) return undefined
      return new Response('WebSocket upgrade failed', { status: 400 })
    }
    const answer = await proxy(request, info)
    if (answer !== undefined) return answer
    if (new URL(request.url).pathname === '/')
      return new Response(page, { headers: { 'content-type': 'text/html' } })
    return new Response('Not Found', { status: 404 })
  },
  websocket: {
    open: (ws) => ws.data.open(ws),
    message: (ws, message) => ws.data.message(message),
    close: (ws, code, reason) => ws.data.close(code, reason),
  },
})
console.log(`listening on ${server.url}`)
process.on('SIGTERM', async () => {
  await server.stop(true)
  await proxy.close()
  process.exit(0)
})
