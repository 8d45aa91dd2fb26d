import { serverFetch } from '@cors-dev-proxy/core'

/** Runs on the server: the route is reached through serverFetch (event.fetch would work too). */
export async function load() {
  return { echo: await (await serverFetch('/api/ssr-probe')).json() }
}
