// The routes every app of the framework suite proxies, the same in each: a backend run by
// run-frameworks.mjs (CDP_BACKEND: lib/backend.mjs), its WebSocket echo, the same echo under a
// prefix the backend expects (kept with `pathRewrite: false`, as Vite's proxy keeps it),
// a route that answers preflights itself (`cors`), one that records its exchanges into the
// app's own folder (`record`), one that fails every request (`failRate`), and a target nobody
// listens on (CDP_DOWN).
// With CDP_TYPO=1 (the suite's second start of each app) one option is misspelt, and the app
// must refuse to start with the option's name.
const backend = process.env.CDP_BACKEND ?? 'http://127.0.0.1:9'
const down = process.env.CDP_DOWN ?? 'http://127.0.0.1:9'

/** The misspelt option of the CDP_TYPO start, and the name the error must suggest. */
export const TYPO = { misspelt: 'changeOrgin', meant: 'changeOrigin' }

/** What the `/fault-api` route answers every request with (`failWith`). */
export const FAULT_STATUS = 429

/** The routes, as each app's config passes them to cors-dev-proxy. */
export const routes = {
  '/api': process.env.CDP_TYPO === '1' ? { target: backend, [TYPO.misspelt]: true } : backend,
  // `/live` itself goes to the target's path as written, `/ws` (its echo accepts only that).
  '/live': { target: `${backend}/ws`, ws: true },
  // A WebSocket API under its own prefix: `/socket/echo` reaches the backend as it is (the
  // backend refuses `/echo`). Written with a ws: target, so the overlay never suggests it for a fetch.
  '/socket': { target: backend.replace(/^http/, 'ws'), ws: true, pathRewrite: false },
  // maxAge: a value only our preflight answer carries, so the check knows who answered. Under
  // `/cors` of the backend, so the overlay's advice for a call to the backend's root stays '/api'.
  '/cors-api': { target: `${backend}/cors`, cors: { maxAge: 321 } },
  // Recordings go to cors-dev-proxy/recordings/rec-api/ under the app's root (the dev server's).
  // Under `/rec` and `/fault` of the backend, as `/cors` above, for the overlay's advice.
  '/rec-api': { target: `${backend}/rec`, record: true },
  // Every request answered by the proxy itself (FAULT_STATUS), marked X-Cors-Dev-Proxy-Fault.
  '/fault-api': { target: `${backend}/fault`, failRate: 1, failWith: FAULT_STATUS },
  '/down': down,
}
