/** A server-side call that misses the proxy: Node's fetch has no origin for '/api/…'. */
export async function loader() {
  return (await fetch('/api/missed')).json()
}

export default function Missed({ loaderData }) {
  return <p>{loaderData.path}</p>
}
