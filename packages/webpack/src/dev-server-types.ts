import type { Server } from 'node:net'

/**
 * The part of a webpack-dev-server 5 or 6 instance, or of its fork `@rspack/dev-server` 2, the
 * adapter uses, typed structurally so the package needs none of their types (all are optional
 * peers) and their `Configuration` types accept it.
 */
export interface DevServerLike {
  /** The listening server (`http`, `https` or `http2`), created before `setupMiddlewares` runs. */
  server?: Server | undefined
  /** The webpack or Rspack compiler (a `MultiCompiler` with several configs). */
  compiler?: unknown
  /** The connect/express app middlewares are mounted on. */
  app?: unknown
  /** webpack's infrastructure logger for `webpack-dev-server`. */
  logger?: {
    info(...args: unknown[]): void
    warn(...args: unknown[]): void
    error(...args: unknown[]): void
  }
  /** The normalized options. */
  options: { server?: unknown; webSocketServer?: unknown; proxy?: unknown }
}

/** The dev server's description of a middleware, as `setupMiddlewares` receives and returns them. */
export interface NamedMiddleware {
  name?: string
  path?: string
  middleware: unknown
}

/** An entry of webpack-dev-server's middleware list: a description, or a bare middleware function. */
export type DevServerMiddleware = NamedMiddleware | ((...args: never[]) => unknown)
