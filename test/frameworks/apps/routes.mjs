// The routes every app of the framework suite proxies, the same in each: a backend run by
// run-frameworks.mjs (CDP_BACKEND: the mock backend with an upload counter), its WebSocket echo,
// and a target nobody listens on (CDP_DOWN).
const backend = process.env.CDP_BACKEND ?? 'http://127.0.0.1:9'
const down = process.env.CDP_DOWN ?? 'http://127.0.0.1:9'

/** The routes, as each app's config passes them to cors-dev-proxy. */
export const routes = {
  '/api': backend,
  // `/live` itself goes to the target's path as written, `/ws` (its echo accepts only that).
  '/live': { target: `${backend}/ws`, ws: true },
  '/down': down,
}
