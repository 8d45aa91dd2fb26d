/** A server-side call that misses the proxy: Node's fetch has no origin for '/api/…'. */
export async function load() {
  return { echo: await (await fetch('/api/missed')).json() }
}
