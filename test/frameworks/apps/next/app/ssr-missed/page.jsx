export const dynamic = 'force-dynamic'

// A server-side call that misses the proxy: Node's fetch has no origin for '/api/…'.
export default async function SsrMissed() {
  try {
    const echo = await (await fetch('/api/missed')).json()
    return <main>MISSED {JSON.stringify(echo)}</main>
  } catch (error) {
    return <main>MISSED {String(error)}</main>
  }
}
