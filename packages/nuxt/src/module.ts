import type { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import { CorsDevProxyError } from '@cors-dev-proxy/core'
import {
  type AppMiddleware,
  createDevServerProxy,
  type DevServerProxy,
  isHostAllowed,
  publishServerUrl,
  type ResolvedCorsDevProxyOptions,
} from '@cors-dev-proxy/core/adapter'
import { defineNuxtModule, useLogger } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { addMissedFetchHint } from './missed-fetch-routes.js'
import { type CorsDevProxyModuleOptions, resolveModuleOptions } from './module-options.js'
import { nuxtLogSink } from './nuxt-log-sink.js'
import { type HmrServerOptions, isHmrUpgrade, nuxtHmrPath } from './nuxt-sockets.js'
import { serveBeforeNuxt } from './serve-before-nuxt.js'
import { upgradesFirst } from './upgrades-first.js'

/** The parts of a resolved Vite config the module reads from the client Vite server. */
interface ViteServerLike {
  readonly config: {
    readonly base: string
    readonly server: HmrServerOptions & {
      readonly allowedHosts: true | readonly string[]
      readonly https?: unknown
    }
  }
}

/** `app.baseURL` joined with `app.buildAssetsDir`, as Nuxt computes the client Vite server's `base`. */
function clientViteBase(nuxt: Nuxt): string {
  const baseURL = nuxt.options.app.baseURL.replace(/^\.\//, '/') || '/'
  const joined = `${baseURL.replace(/\/$/, '')}/${nuxt.options.app.buildAssetsDir.replace(/^\//, '')}`
  return joined.endsWith('/') ? joined : `${joined}/`
}

/**
 * What the proxy needs to know of the client Vite server: where its HMR socket is, and its host
 * check. Read from Nuxt's options at first; from the server's resolved config once Nuxt has
 * created it (after `listen`), which is what Vite itself applies.
 */
function createViteFacts(nuxt: Nuxt) {
  const vite = nuxt.options.vite?.server as (HmrServerOptions & { allowedHosts?: unknown }) | undefined
  let hmrPath = nuxtHmrPath(clientViteBase(nuxt), vite)
  let allowedHosts: true | readonly string[] = Array.isArray(vite?.allowedHosts)
    ? vite.allowedHosts
    : vite?.allowedHosts === true || []
  // Vite checks Host over HTTP only: a DNS-rebinding page cannot present a valid certificate.
  let https = Boolean(nuxt.options.devServer.https)
  return {
    isOwnUpgrade: (req: IncomingMessage) => isHmrUpgrade(req, hmrPath),
    isAllowed: (req: IncomingMessage) => https || isHostAllowed(req.headers.host, allowedHosts),
    learn(server: ViteServerLike) {
      hmrPath = nuxtHmrPath(server.config.base, server.config.server)
      allowedHosts = server.config.server.allowedHosts
      https = Boolean(server.config.server.https)
    },
  }
}

/** Vite's answer to a foreign Host (`hostValidationMiddleware`), pointing at nuxt.config. */
function hostCheck(isAllowed: (req: IncomingMessage) => boolean): AppMiddleware {
  return function nuxtViteHostCheck(req, res, next) {
    if (isAllowed(req as IncomingMessage)) {
      next()
      return
    }
    const host = String(req.headers.host)
    const name = host.replace(/:\d+$/, '')
    res.writeHead(403, { 'content-type': 'text/plain' })
    res.end(
      `Blocked request. This host (${JSON.stringify(host)}) is not allowed.\n` +
        `To allow this host, add ${JSON.stringify(name)} to \`vite.server.allowedHosts\` in nuxt.config.\n`,
    )
  }
}

/**
 * `resolveModuleOptions`, whose `CorsDevProxyError` loses its stack frames: Nuxt prints an error
 * that stops it with its stack, and for a mistake in nuxt.config those frames are ours and Nuxt's
 * module loader, never the user's. The message already names the option and shows the fix.
 */
function resolveWithoutFrames(options: unknown): ResolvedCorsDevProxyOptions {
  try {
    return resolveModuleOptions(options)
  } catch (error) {
    if (error instanceof CorsDevProxyError) error.stack = `${error.name}: ${error.message}`
    throw error
  }
}

/**
 * Attaches one proxy to `nuxt dev`'s listener, with `root` (Nuxt's `rootDir`) for a relative
 * `recordings.dir`; returns what closes it with this Nuxt instance.
 */
function attach(
  server: EventEmitter,
  resolved: ResolvedCorsDevProxyOptions,
  facts: ReturnType<typeof createViteFacts>,
  root: string,
): () => Promise<void> {
  const upgrades = upgradesFirst(server, facts.isOwnUpgrade)
  const proxy: DevServerProxy = createDevServerProxy(resolved, {
    sink: nuxtLogSink(useLogger('cors-dev-proxy')),
    server: upgrades.server,
    isOwnUpgrade: facts.isOwnUpgrade,
    isAllowedUpgrade: facts.isAllowed,
    unclaimedUpgrade: upgrades.unclaimedUpgrade,
    root,
  })
  const restore = serveBeforeNuxt(server, {
    middleware: proxy.middleware as AppMiddleware,
    claims: proxy.claims,
    plan: () => [hostCheck(facts.isAllowed)],
  })
  // The proxy sees the listener through `upgrades.server`, so the URL for `serverFetch` is
  // published here: before Nitro starts its dev worker (after `listen`), whose thread gets a copy
  // of process.env when it starts.
  publishServerUrl(server)
  return async function detach() {
    restore()
    upgrades.restore()
    await proxy.close()
  }
}

/**
 * The Nuxt module: proxies the configured path prefixes to their targets in `nuxt dev`, with the
 * routes and options of `@cors-dev-proxy/core` under the `corsDevProxy` key of nuxt.config
 * (`{ routes, ...options }`, or the routes alone). It does nothing in `nuxt build`,
 * `nuxt generate` or production: there the routes come from the nginx or Caddy export of the
 * `cors-dev-proxy` CLI, or from Nitro's `routeRules`.
 *
 * In `nuxt dev` it runs one proxy on the listener `nuxi dev` opens (Nuxt's `listen` hook), in
 * front of Nuxt, Nitro and both Vite servers: the routes win over `server/api`, preflights reach
 * the route's `cors` policy or the backend, WebSocket upgrades of `ws` routes are forwarded
 * while Vite's HMR socket is left alone, Vite's `allowedHosts` check applies, lines go through
 * Nuxt's logger, and `process.env.CORS_DEV_PROXY_URL` tells server-side code where the routes
 * are; a server-side `$fetch` of a route's path, which Nitro answers without the proxy, is
 * explained once per path in the terminal. Configuration mistakes fail when `nuxt dev` starts,
 * with a `CorsDevProxyError`.
 *
 * @example
 * // nuxt.config.ts
 * export default defineNuxtConfig({
 *   modules: ['@cors-dev-proxy/nuxt'],
 *   corsDevProxy: { routes: { '/api': 'http://localhost:3000' }, cors: true },
 * })
 */
export const corsDevProxyModule = defineNuxtModule<CorsDevProxyModuleOptions>({
  meta: {
    name: '@cors-dev-proxy/nuxt',
    configKey: 'corsDevProxy',
    compatibility: { nuxt: '>=4.0.0' },
  },
  setup(options, nuxt) {
    if (!nuxt.options.dev) return
    // Resolved once, while Nuxt loads its modules: a mistake stops `nuxt dev` before it listens.
    const resolved = resolveWithoutFrames(options)
    // The overlay's client, first in every page's head in `nuxt dev` only (the module does
    // nothing in `nuxt build`); the proxy on the listener answers it.
    if (resolved.overlay) {
      nuxt.options.app.head ??= {}
      const head = nuxt.options.app.head
      head.script = [
        { src: '/__cors-dev-proxy/client.js', type: 'module', tagPriority: -100 },
        ...(head.script ?? []),
      ]
    }
    const facts = createViteFacts(nuxt)
    addMissedFetchHint(resolved.routes)
    let detach: (() => Promise<void>) | undefined

    // Nuxt creates two Vite servers (client and SSR), both in middleware mode; only the client's
    // serves the browser, and its resolved config says where its HMR socket is.
    nuxt.hook('vite:serverCreated', (server, { isClient }) => {
      if (isClient) facts.learn(server as unknown as ViteServerLike)
    })
    // `listen` runs once per Nuxt instance (again after a restart), with the listener's server,
    // after nuxi has added its own request and upgrade listeners and before Nuxt builds.
    nuxt.hook('listen', (server) => {
      detach = attach(server, resolved, facts, nuxt.options.rootDir)
    })
    nuxt.hook('close', async () => {
      const closing = detach
      detach = undefined
      await closing?.()
    })
  },
})

declare module '@nuxt/schema' {
  interface NuxtConfig {
    /** cors-dev-proxy's routes and options for `nuxt dev` (see `@cors-dev-proxy/nuxt`). */
    corsDevProxy?: CorsDevProxyModuleOptions
  }
  interface NuxtOptions {
    corsDevProxy?: CorsDevProxyModuleOptions
  }
}
