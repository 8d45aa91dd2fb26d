// Calls the checks make from the app's page, shared by lib/checks.mjs and the apps' own
// checks.mjs: a WebSocket's echo, and the time between an event stream's first two events.

/**
 * Opens a WebSocket to `path` of the page's origin, sends `message` and resolves with the first
 * answer (rejects after 10 s, or when the socket fails).
 * @param {import('playwright-core').Page} page
 * @param {string} path
 * @param {string} message
 * @returns {Promise<string>}
 */
export function webSocketEcho(page, path, message) {
  return page.evaluate(
    ({ path, message }) =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`${location.origin.replace(/^http/, 'ws')}${path}`)
        const timer = setTimeout(() => reject(new Error('no answer in 10 s')), 10_000)
        socket.onopen = () => socket.send(message)
        socket.onerror = () => reject(new Error('the WebSocket failed'))
        socket.onmessage = (event) => {
          clearTimeout(timer)
          socket.close()
          resolve(String(event.data))
        }
      }),
    { path, message },
  )
}

/**
 * Opens an EventSource on `url` (a stream of two events `gap` ms apart: the mock backend's
 * `/events?count=2&interval=<gap>`) and resolves with the milliseconds between their arrivals;
 * rejects when both have not come within `timeout` ms. A stream held back until its end (gzip, a
 * buffering proxy) delivers both together: close to 0.
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @param {number} timeout
 * @returns {Promise<number>}
 */
export function firstEventsGap(page, url, timeout) {
  return page.evaluate(
    ({ url, timeout }) =>
      new Promise((resolve, reject) => {
        const source = new EventSource(url)
        const times = []
        const timer = setTimeout(() => {
          source.close()
          reject(new Error(`${times.length} events in ${timeout / 1000} s`))
        }, timeout)
        source.onmessage = () => {
          times.push(performance.now())
          if (times.length < 2) return
          clearTimeout(timer)
          source.close()
          resolve(times[1] - times[0])
        }
      }),
    { url, timeout },
  )
}
