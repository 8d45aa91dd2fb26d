/**
 * A server-side call that misses the proxy (Node's fetch has no origin for '/api/…'), then the
 * call the hint names for SvelteKit, event.fetch, which reaches the route.
 */
export async function load({ fetch: eventFetch }) {
  let missed = 'reached'
  try {
    await fetch('/api/missed')
  } catch {
    missed = 'missed'
  }
  return { missed, echo: await (await eventFetch('/api/alternative')).json() }
}
