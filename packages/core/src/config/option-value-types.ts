/*
 * The types of the values some options take, named both by the validators (validate-values.ts)
 * and the option table's entries, and by the interfaces a user writes (options.ts). They live
 * apart so that the table, whose entries give `RouteOptions` its simple options' types, needs
 * nothing from options.ts: its imports never come back to it (no import cycle, type-only ones
 * included; test/architecture/layers.test.ts).
 */
import type { ProxyRequest, ProxyResponse } from '../http/proxy-types.js'

/**
 * Rewrites the path (with its query) before it is sent upstream. An object maps
 * regular-expression strings to replacements, applied in order, as in http-proxy-middleware.
 */
export type PathRewrite =
  | false
  | Record<string, string>
  | ((
      path: string,
      req: ProxyRequest,
      res?: ProxyResponse,
      // biome-ignore lint/suspicious/noExplicitAny: the route as the user wrote it, passed back unchanged.
      options?: any,
    ) => string | Promise<string>)

/**
 * Rewrites a Set-Cookie attribute: `false` keeps it, a string replaces it (`''` removes it), an object maps
 * old → new (`'*'` for any).
 */
export type CookieRewrite = false | string | Record<string, string>

/** The object form of a route's `jsonp` option. */
export interface JsonpOptions {
  /**
   * Name of the query parameter that carries the callback name.
   * @default 'callback'
   * @example 'cb'
   */
  param?: string
}

/** Verbosity of the `[cors-dev-proxy]` log. */
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug'

/** Where log lines go; adapters pass the dev server's own logger. */
export interface LogSink {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}
