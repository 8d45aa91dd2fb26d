// The custom-server recipe of docs/frameworks/next.md: Next 16 with Turbopack, cors-dev-proxy in
// front of it (routes, `ws` routes, the overlay's endpoints), Next's HMR socket left to Next.
// `node server.mjs <port> webpack` (or `--webpack`) runs the app of the current folder on webpack
// instead, as `next dev --webpack` does: apps/next-webpack on Next 16, apps/next-15 on Next 15.
import { createNextServer } from '@cors-dev-proxy/next'
import next from 'next'
import { routes } from '../routes.mjs'

const port = Number(process.argv[2] ?? 3000)
// Next 16 takes `webpack: true`; Next 15 bundles with webpack unless `turbopack` is set.
const bundler = ['webpack', '--webpack'].includes(process.argv[3] ?? '')
  ? { webpack: true, turbopack: false }
  : { turbopack: true }
const hostname = '127.0.0.1'
const { server } = await createNextServer(
  next,
  { dev: true, ...bundler, dir: process.cwd(), hostname, port },
  // No `timeout`: checks.mjs's 60 s answer must come through with the defaults users have
  // (Next's rewrites would cut it at 30 s).
  routes,
)
server.listen(port, hostname, () => console.log(`listening on http://${hostname}:${port}`))
