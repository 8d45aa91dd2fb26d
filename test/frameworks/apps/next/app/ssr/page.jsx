import { serverFetch } from '@cors-dev-proxy/next'

export const dynamic = 'force-dynamic'

// A server component reaches the routes through serverFetch: fetch('/api/…') has no origin here.
export default async function Ssr() {
  const echo = await (await serverFetch('/api/ssr-probe')).json()
  return <main>SSR-OK {echo.path}</main>
}
