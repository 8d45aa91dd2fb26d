// Runs inside bench.html on one dev server's origin: 100 parallel same-origin requests through
// the proxy, then posts their resource timings (with nextHopProtocol) to the parent page.

window.addEventListener('message', async (event) => {
  if (event.data?.type !== 'run-burst') return
  const { count, delay } = event.data
  const run = Math.random().toString(36).slice(2, 8)
  performance.clearResourceTimings()
  const started = performance.now()
  try {
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        fetch(`/api/items?delay=${delay}&run=${run}&i=${i}`).then((r) => r.text()),
      ),
    )
  } catch (error) {
    // A failed fetch says why (the page shows it) instead of leaving the page waiting.
    event.source.postMessage(
      { type: 'burst-result', error: `a request of the burst failed: ${error}` },
      event.origin,
    )
    return
  }
  const total = performance.now() - started
  const entries = performance
    .getEntriesByType('resource')
    .filter((entry) => entry.name.includes(`run=${run}`))
    .map((entry) => ({
      start: entry.startTime - started,
      requestStart: (entry.requestStart || entry.startTime) - started,
      end: entry.responseEnd - started,
      protocol: entry.nextHopProtocol,
    }))
    .sort((a, b) => a.start - b.start || a.requestStart - b.requestStart)
  const protocols = [...new Set(entries.map((entry) => entry.protocol))]
  event.source.postMessage(
    { type: 'burst-result', total, protocols, entries, maxInFlight: maxInFlight(entries) },
    event.origin,
  )
})

/** The most requests on the wire at one moment: HTTP/1.1 keeps this at about 6 per host. */
function maxInFlight(entries) {
  const edges = entries.flatMap((entry) => [
    [entry.requestStart, 1],
    [entry.end, -1],
  ])
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let current = 0
  let most = 0
  for (const [, step] of edges) {
    current += step
    most = Math.max(most, current)
  }
  return most
}

// The page holding this frame waits for this before it asks for a burst (a message sent before
// this script ran would be lost). Nothing in it is private, so any parent may read it.
window.parent.postMessage({ type: 'burst-ready' }, '*')
