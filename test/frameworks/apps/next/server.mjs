// The custom-server recipe of docs/frameworks/next.md: Next 16 with Turbopack (webpack with
// `--webpack` after the port, as `next dev --webpack`), cors-dev-proxy in front of it (routes,
// `ws` routes, the overlay's endpoints), Next's HMR socket left to Next.
import { createNextServer } from '@cors-dev-proxy/next'
import next from 'next'
import { routes } from '../routes.mjs'

const port = Number(process.argv[2] ?? 3000)
const hostname = '127.0.0.1'
const turbopack = process.argv[3] !== '--webpack'
const { server } = await createNextServer(
  next,
  { dev: true, turbopack, dir: import.meta.dirname, hostname, port },
  routes,
  // The routes' own timeout (30 s by default), raised for checks.mjs's 60 s answer: Next's
  // rewrites would cut it at 30 s whatever is set.
  { timeout: 90_000 },
)
server.listen(port, hostname, () => console.log(`listening on http://${hostname}:${port}`))
