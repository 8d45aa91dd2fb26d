// routes.mjs is written in cors-dev-proxy's own terms, where a route removes its prefix unless
// `pathRewrite` says otherwise and `changeOrigin` is on; angularProxy reads ng serve's, where
// the path is kept and `changeOrigin` is off unless set. Each shared route says what it means
// here, so the Angular apps send the backend the same requests as every other app.
import { routes } from '../routes.mjs'

/** The shared routes, each with its `pathRewrite` and `changeOrigin` written out. */
export const sharedRoutes = Object.fromEntries(
  Object.entries(routes).map(([prefix, route]) => {
    const written = typeof route === 'string' ? { target: route } : route
    const pathRewrite = written.pathRewrite ?? { [`^${prefix}`]: '' }
    return [prefix, { changeOrigin: true, ...written, pathRewrite }]
  }),
)
