import type { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'
import {
  type AppMiddleware,
  createDevServerProxy,
  isHostAllowed,
  resolveOptions,
  splitConfig,
} from '@cors-dev-proxy/core/adapter'

/** Storybook's own WebSocket on its dev server (the server channel), which no route may take. */
const STORYBOOK_CHANNEL_PATH = '/storybook-server-channel'

/** Where the proxy serves the overlay's client (`createDevServerProxy` answers it before any route). */
const OVERLAY_SCRIPT = '<script type="module" src="/__cors-dev-proxy/client.js"></script>'

/** The part of Storybook's dev-server router (polka) that `.storybook/middleware.js` receives and the proxy uses. */
export interface StorybookRouter {
  /** Mounts a middleware after Storybook's own (host check, headers), before its builder's. */
  use(middleware: AppMiddleware): unknown
  /** The server Storybook listens on: the proxy takes its upgrades for `ws` routes and closes with it. */
  readonly server?: (EventEmitter & { readonly listening?: boolean }) | undefined
}

function isStorybookChannel(req: IncomingMessage): boolean {
  const url = req.url ?? '/'
  const end = url.indexOf('?')
  return (end === -1 ? url : url.slice(0, end)) === STORYBOOK_CHANNEL_PATH
}

/**
 * cors-dev-proxy for Storybook's own dev server, whatever its builder (made for the webpack
 * builder, `@storybook/react-webpack5` and the other `*-webpack5` frameworks, whose dev server
 * is Storybook's, not webpack-dev-server): export what it returns from `.storybook/middleware.js`,
 * which Storybook calls with its router before the builder mounts its own. WebSocket upgrades of
 * `ws` routes are taken on Storybook's server, its own channel left alone; since Storybook's Host
 * check sees no upgrade, they are accepted from `localhost`, `*.localhost` and IP addresses
 * only. Routes and options are those of `createCorsDevProxy`; a mistake throws when Storybook
 * loads the file. Add {@link storybookPreviewHead} to `.storybook/main.js` for the overlay.
 *
 * @example
 * // .storybook/middleware.js
 * import { storybookMiddleware } from '@cors-dev-proxy/webpack'
 * export default storybookMiddleware({ '/api': 'http://localhost:3000' })
 */
export function storybookMiddleware(
  routesOrConfig: Routes | (CorsDevProxyOptions & { routes: Routes }),
  options?: CorsDevProxyOptions,
): (router: StorybookRouter) => void {
  const [routes, given] = splitConfig(routesOrConfig, options)
  // Resolved now, so a mistake fails when Storybook loads the file, naming the option.
  const resolved = resolveOptions(routes, given)
  return function corsDevProxyStorybook(router: StorybookRouter): void {
    const proxy = createDevServerProxy(resolved, {
      server: router.server,
      isOwnUpgrade: isStorybookChannel,
      isAllowedUpgrade: (req) => isHostAllowed(req.headers.host, []),
    })
    router.use(proxy.middleware)
  }
}

/**
 * Storybook's `previewHead` that loads cors-dev-proxy's overlay into each story's iframe, for
 * {@link storybookMiddleware}: a direct call to another origin that the browser blocks is
 * explained there, with the route to add. Not needed with the Vite builder (the Vite plugin
 * adds it) nor with `overlay: false`.
 *
 * @example
 * // .storybook/main.js
 * import { storybookPreviewHead } from '@cors-dev-proxy/webpack'
 * export default { framework: '@storybook/react-webpack5', previewHead: storybookPreviewHead }
 */
export function storybookPreviewHead(head: string): string {
  return `${head}\n${OVERLAY_SCRIPT}`
}
