import { serverFetch } from '@cors-dev-proxy/core'

/** Runs on the server: fetch('/api/…') would have no origin here. */
export async function loader() {
  return (await serverFetch('/api/ssr-probe')).json()
}

export default function Ssr({ loaderData }) {
  return <p>SSR-OK {loaderData.path}</p>
}
