// The usual custom SSR server: Express, with Vite in middleware mode for the page and HMR.
import { readFile } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import { serverFetch } from '@cors-dev-proxy/core'
import { attachCorsDevProxy, corsDevProxy } from '@cors-dev-proxy/vite'
import express from 'express'
import { createServer } from 'vite'
import { routes } from '../routes.mjs'

const port = Number(process.argv[2] ?? 5173)
const root = import.meta.dirname
const server = createHttpServer()
const vite = await createServer({
  root,
  appType: 'custom',
  server: { middlewareMode: true, hmr: { server } },
  plugins: [corsDevProxy(routes)],
})
const app = express()
app.use(vite.middlewares)
app.get('/ssr', async (_req, res) => {
  // Server-side code reaches the routes through serverFetch: fetch('/api/…') has no origin here.
  const echo = await (await serverFetch('/api/ssr-probe')).json()
  res.type('html').send(`<!doctype html><p>SSR-OK ${echo.path}</p>`)
})
app.get('/ssr-missed', async (_req, res) => {
  // A server-side call that misses the proxy: Node's fetch has no origin for '/api/…'.
  try {
    res.json(await (await fetch('/api/missed')).json())
  } catch (error) {
    res.status(500).send(String(error))
  }
})
app.get('/', async (req, res) => {
  const html = await readFile(`${root}/index.html`, 'utf8')
  res.type('html').send(await vite.transformIndexHtml(req.originalUrl, html))
})
server.on('request', app)
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`))
attachCorsDevProxy(vite, server)
