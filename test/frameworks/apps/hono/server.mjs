// Hono on Node, as its users run it: @hono/node-server, the proxy as the first middleware
// (`app.use`), WebSockets through @hono/node-ws, and the page as an ordinary route after it.
import { readFile } from 'node:fs/promises'
import { createFetchHandler } from '@cors-dev-proxy/core'
import { serve } from '@hono/node-server'
import { createNodeWebSocket } from '@hono/node-ws'
import { Hono } from 'hono'
import { routes } from '../routes.mjs'

const port = Number(process.argv[2] ?? 3000)
const page = await readFile(new URL('./index.html', import.meta.url), 'utf8')
const proxy = createFetchHandler(routes)

const app = new Hono()
const { injectWebSocket, upgradeWebSocket } = createNodeWebSocket({ app })
app.use(async (c, next) => {
  // node-server's { incoming, outgoing }: the client's address for X-Forwarded-For (xfwd), and
  // its leaving read from `outgoing` rather than from the Request's signal.
  const info = c.env
  const bridge = await proxy.webSocket(c.req.raw, info)
  if (bridge instanceof Response) return bridge
  if (bridge !== undefined) {
    const accept = upgradeWebSocket(() => ({
      onOpen: (_event, ws) => bridge.open(ws),
      onMessage: (event) => bridge.message(event.data),
      onClose: (event) => bridge.close(event.code, event.reason),
    }))
    return accept(c, next)
  }
  return (await proxy(c.req.raw, info)) ?? next()
})
app.get('/', (c) => c.html(page))

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () =>
  console.log(`listening on http://127.0.0.1:${port}`),
)
injectWebSocket(server)
process.on('SIGTERM', () => server.close(() => proxy.close().then(() => process.exit(0))))
