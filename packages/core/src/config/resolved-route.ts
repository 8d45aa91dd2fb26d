import type { ResolvedRecordingsOptions } from '../stand-ins/recordings/options/resolve-recordings-options.js'
import type { ResolvedOptions } from './option-entry.js'
import type { LogLevel, LogSink } from './option-value-types.js'
import type { SimpleOptionParts } from './options.js'
import type { ResolvedInspectorOptions } from './resolve-inspector-options.js'
import type { ResolvedForwardParts, ResolvedMockRoute } from './resolved-route-parts.js'

export type {
  ResolvedForwardParts,
  ResolvedJsonpOptions,
  ResolvedMockRoute,
  ResolvedRouteBase,
  ResolvedRouteParts,
} from './resolved-route-parts.js'

/**
 * The simple options of a forwarding route (the option table's entries built by `option()`, but
 * `ws`, which a mock route has too): each filled in from the route, the shared options or the
 * table's default by `applyOptions`, in one spread. Derived from the entries' types, so a new
 * simple option's resolved type needs no line here.
 */
export type ResolvedSimpleOptions = Omit<ResolvedOptions<SimpleOptionParts, 'route' | 'both'>, 'ws'>

/** A route that forwards to a target. */
export interface ResolvedForwardRoute extends ResolvedForwardParts, ResolvedSimpleOptions {}

/**
 * A route after validation, with every default filled in and every matcher precomputed.
 * Built once by `resolveOptions`; never rebuilt per request. `kind` tells a forwarding route
 * from a mocking one, so no code has to guess from which fields are set.
 */
export type ResolvedRoute = ResolvedForwardRoute | ResolvedMockRoute

/** Everything the proxy works from, resolved once. */
export interface ResolvedCorsDevProxyOptions {
  /** Routes sorted longest prefix first, so the first match is the longest. */
  readonly routes: readonly ResolvedRoute[]
  readonly log: LogLevel
  /**
   * Where log lines go, when the user chose it; `undefined` lets the host decide (the dev
   * server's logger in the adapters, the console otherwise).
   */
  readonly logger: LogSink | undefined
  /** `createCorsDevProxy`'s middleware subscribes to its server's `'upgrade'` event (see `CorsDevProxyOptions.subscribeUpgrade`). */
  readonly subscribeUpgrade: boolean
  /** The adapters inject the overlay's client script (see `CorsDevProxyOptions.overlay`). */
  readonly overlay: boolean
  /** The exchange inspector's settings; `undefined` when `inspector: false` (nothing recorded). */
  readonly inspector: ResolvedInspectorOptions | undefined
  /** Where `record` and `replay` keep their files, and the bounds. */
  readonly recordings: ResolvedRecordingsOptions
  /**
   * Advice about the configuration that is not an error (a `maxAge` Chromium caps, a lowercase
   * method name...), for the proxy to log once at start-up.
   */
  readonly warnings: readonly string[]
}
