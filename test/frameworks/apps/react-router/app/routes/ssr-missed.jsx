/**
 * A server-side call that misses the proxy (Node's fetch has no origin for '/api/…'), then the
 * call the hint names for React Router, a URL made absolute against the loader's request.url,
 * which reaches the route.
 */
export async function loader({ request }) {
  let missed = 'reached'
  try {
    await fetch('/api/missed')
  } catch {
    missed = 'missed'
  }
  const echo = await (await fetch(new URL('/api/alternative', request.url))).json()
  return { missed, path: echo.path }
}

export default function Missed({ loaderData }) {
  // One string: React would put <!-- --> between the parts in the server-rendered HTML.
  return <p>{`ALT-OK ${loaderData.missed} ${loaderData.path}`}</p>
}
