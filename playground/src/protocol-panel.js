// HTTP/1.1 against HTTP/2: each dev server runs the same burst in a frame of its own origin (so
// the timing is same-origin and complete) and posts the resource timings back here.

const panels = { h1: document.querySelector('#proto-h1'), h2: document.querySelector('#proto-h2') }

/** Adds the two frames and wires the Run button. */
export function setupProtocolPanel(env) {
  const frames = document.querySelector('#frames')
  const origins = { h1: env.http, h2: env.https }
  const windows = {}
  for (const [key, origin] of Object.entries(origins)) {
    panels[key].querySelector('h3').textContent = origin
    const frame = document.createElement('iframe')
    // A message posted before the frame's script listens is lost: a click soon after the page
    // loads (a dev server still compiling) waited 20 s for nothing. The frame says when it listens.
    const ready = new Promise((resolve) => {
      window.addEventListener('message', function onReady(event) {
        if (event.origin !== origin || event.data?.type !== 'burst-ready') return
        window.removeEventListener('message', onReady)
        resolve()
      })
    })
    frame.src = `${origin}/bench.html`
    frame.title = `burst runner on ${origin}`
    frames.append(frame)
    windows[key] = { frame, origin, ready }
  }
  document.querySelector('#run-protocols').addEventListener('click', async () => {
    for (const [key, { frame, origin, ready }] of Object.entries(windows)) {
      const summary = panels[key].querySelector('.summary')
      summary.textContent = 'running…'
      try {
        const result = await runBurst(frame, origin, ready)
        draw(panels[key], result)
      } catch (error) {
        summary.textContent = `${error.message}. If this is the HTTPS frame, open ${origin} once and accept the self-signed certificate, then reload.`
        panels[key].dataset.error = error.message
      }
    }
    document.body.dataset.protocolsDone = 'true'
  })
}

/** Runs the burst in one frame once it listens; 20 s for both, from the click. */
function runBurst(frame, origin, ready) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      window.removeEventListener('message', onMessage)
      reject(new Error(`no answer from ${origin} in 20 s`))
    }, 20_000)
    function onMessage(event) {
      if (event.origin !== origin || event.data?.type !== 'burst-result') return
      clearTimeout(timer)
      window.removeEventListener('message', onMessage)
      if (event.data.error) reject(new Error(event.data.error))
      else resolve(event.data)
    }
    window.addEventListener('message', onMessage)
    ready.then(() => frame.contentWindow.postMessage({ type: 'run-burst', count: 100, delay: 100 }, origin))
  })
}

/** Draws one bar per request: queued (grey) from fetch() to requestStart, then on the wire (coloured). */
function draw(panel, { total, protocols, entries, maxInFlight }) {
  const protocol = protocols.join(', ')
  panel.dataset.protocol = protocol
  panel.dataset.total = String(Math.round(total))
  panel.dataset.maxInFlight = String(maxInFlight)
  panel.querySelector('.summary').textContent =
    `${entries.length} requests in ${Math.round(total)} ms over ${protocol}, at most ${maxInFlight} on the wire at once`
  const canvas = panel.querySelector('canvas')
  const context = canvas.getContext('2d')
  context.clearRect(0, 0, canvas.width, canvas.height)
  const end = Math.max(...entries.map((entry) => entry.end), 1)
  const rowHeight = canvas.height / entries.length
  const x = (t) => (t / end) * canvas.width
  entries.forEach((entry, i) => {
    context.fillStyle = '#d0d7de'
    context.fillRect(
      x(entry.start),
      i * rowHeight,
      Math.max(1, x(entry.requestStart) - x(entry.start)),
      rowHeight,
    )
    context.fillStyle = protocol.includes('h2') ? '#1a7f37' : '#0969da'
    context.fillRect(
      x(entry.requestStart),
      i * rowHeight,
      Math.max(1, x(entry.end) - x(entry.requestStart)),
      rowHeight,
    )
  })
}
