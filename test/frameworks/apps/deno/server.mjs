// Deno, as its users serve: Deno.serve with the proxy's Fetch handler first and the page after
// it; a `ws` route's upgrade accepted by Deno.upgradeWebSocket and bridged to the target's
// WebSocket. Our package comes from the install's node_modules (`--node-modules-dir=manual`).
import { createFetchHandler } from '@cors-dev-proxy/core'
import { routes } from '../routes.mjs'

const port = Number(Deno.args[0] ?? 3000)
const page = await Deno.readTextFile(new URL('./index.html', import.meta.url))
const proxy = createFetchHandler(routes)

/** The client's socket, accepted by Deno, fed to the bridge. */
function acceptWebSocket(request, bridge) {
  const { socket, response } = Deno.upgradeWebSocket(request)
  socket.binaryType = 'arraybuffer'
  socket.onopen = () => bridge.open(socket)
  socket.onmessage = (event) => bridge.message(event.data)
  socket.onclose = (event) => bridge.close(event.code, event.reason)
  return response
}

const server = Deno.serve({ port, hostname: '127.0.0.1' }, async (request, info) => {
  // The client's address, for X-Forwarded-For (xfwd): a Request does not carry it.
  const connection = { remoteAddress: info.remoteAddr.hostname }
  const bridge = await proxy.webSocket(request, connection)
  if (bridge instanceof Response) return bridge
  if (bridge !== undefined) return acceptWebSocket(request, bridge)
  const answer = await proxy(request, connection)
  if (answer !== undefined) return answer
  if (new URL(request.url).pathname === '/')
    return new Response(page, { headers: { 'content-type': 'text/html' } })
  return new Response('Not Found', { status: 404 })
})
Deno.addSignalListener('SIGTERM', async () => {
  await server.shutdown()
  await proxy.close()
  Deno.exit(0)
})
