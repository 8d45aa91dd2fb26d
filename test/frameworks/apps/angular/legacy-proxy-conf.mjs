// What an Angular workspace's proxy.conf.json holds before it moves to angularProxy, as the
// Angular docs write it (the suite's backend as target, prefixes of its own): the same option
// names and values, handed to angularProxy unchanged, must behave as ng serve's own proxy did
// (checks.mjs): entries with and without `pathRewrite`, and a WebSocket entry without one.
const backend = process.env.CDP_BACKEND ?? 'http://127.0.0.1:9'

/** The proxy.conf.json entries, as JSON would hold them. */
export const legacyProxyConf = {
  // No longer than '/api', to the same target: the overlay's advice for a call to the backend
  // names the first route that reaches it, longest prefix first, and the shared check wants '/api'.
  '/old': {
    target: backend,
    secure: false,
    changeOrigin: true,
    pathRewrite: { '^/old': '' },
  },
  // A WebSocket route as proxy.conf.json writes one (a ws: target, `ws: true`); the backend's
  // echo answers on /ws only.
  '/old-ws': {
    target: backend.replace(/^http/, 'ws'),
    secure: false,
    changeOrigin: true,
    ws: true,
    pathRewrite: { '^/old-ws': '/ws' },
  },
  // Nothing but a target: ng serve keeps the path (`/raw/items` reaches `/raw/items`) and sends
  // its own Host. Sorted after '/api' (same length), so the overlay's advice still names '/api'.
  '/raw': { target: backend },
  // A WebSocket entry without pathRewrite: `/ws` reaches the backend's echo at `/ws`, as it is.
  '/ws': { target: backend.replace(/^http/, 'ws'), ws: true },
}
