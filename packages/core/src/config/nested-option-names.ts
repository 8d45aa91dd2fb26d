/*
 * The keys each nested option object accepts (`cors`, `mock`, `jsonp`, `inspector`,
 * `recordings`, `openapi`, `on`), each list held by the compiler to its interface. A route's and the shared
 * options' keys are the option table's (option-lists.ts).
 */

import type { OpenApiOptions } from '../contract/options/openapi-options.js'
import type { MockBackendOptions } from '../stand-ins/mock-backend/options/echo-backend-options.js'
import type { RecordingsOptions } from '../stand-ins/recordings/options/recordings-options.js'
import type { CorsOptions } from './cors-options.js'
import type { ProxyHooks } from './hook-options.js'
import type { InspectorOptions } from './inspector-options.js'
import type { JsonpOptions } from './option-value-types.js'

/**
 * Every key of `T`, each set to `true`. A list written as one (see {@link keyList}) is checked by
 * the compiler against the interface: a key missing from it, or one the interface does not have,
 * is a type error, so the validator cannot drift from the documented options.
 */
type KeySet<T> = { readonly [K in keyof Required<T>]: true }

/** The keys of a {@link KeySet}, in the order written (the order "Known options" lists them in). */
function keyList<T>(keys: KeySet<T>): readonly string[] {
  return Object.freeze(Object.keys(keys))
}

/** Keys a CORS policy accepts: `CorsOptions`'s, the `cors` package's option names. */
export const CORS_OPTION_NAMES: readonly string[] = keyList<CorsOptions>({
  origin: true,
  methods: true,
  allowedHeaders: true,
  exposedHeaders: true,
  credentials: true,
  maxAge: true,
  preflightContinue: true,
  optionsSuccessStatus: true,
})

/** Keys the mock backend accepts: `MockBackendOptions`'s. */
export const MOCK_OPTION_NAMES: readonly string[] = keyList<MockBackendOptions>({
  cors: true,
  origin: true,
  credentials: true,
  jsonpParam: true,
  bodyLimit: true,
  logLimit: true,
})

/** Keys `jsonp` accepts as an object: `JsonpOptions`'s. */
export const JSONP_OPTION_NAMES: readonly string[] = keyList<JsonpOptions>({
  param: true,
})

/** Keys `inspector` accepts as an object: `InspectorOptions`'s. */
export const INSPECTOR_OPTION_NAMES: readonly string[] = keyList<InspectorOptions>({
  exchanges: true,
  bodyLimit: true,
})

/** Keys `recordings` accepts: `RecordingsOptions`'s. */
export const RECORDINGS_OPTION_NAMES: readonly string[] = keyList<RecordingsOptions>({
  dir: true,
  mask: true,
  maxFiles: true,
  maxAnswers: true,
  maxBodyBytes: true,
  maxGap: true,
})

/** Keys a route's `openapi` accepts as an object: `OpenApiOptions`'s. */
export const OPENAPI_OPTION_NAMES: readonly string[] = keyList<OpenApiOptions>({
  document: true,
  enforce: true,
  mock: true,
  maxBodyBytes: true,
})

/** The hooks `on` accepts (http-proxy-middleware's names): `ProxyHooks`'s keys. */
export const HOOK_NAMES: readonly string[] = keyList<ProxyHooks>({
  proxyReq: true,
  proxyRes: true,
  error: true,
  proxyReqWs: true,
})

/**
 * A valid value per nested option, for examples that name an option the user did not write
 * correctly (a typo, a name from another tool): the user's own value may not be valid for it.
 * `'true'` means the option takes either boolean, so the user's boolean is kept. A name missing
 * here (or without `fixValue` in the option table) shows `true`; `test/config/fix-examples.test.ts`
 * fails when that is not valid for it.
 */
export const NESTED_FIX_VALUES: Readonly<
  Record<
    'cors' | 'mock' | 'jsonp' | 'hooks' | 'inspector' | 'recordings' | 'openapi',
    Readonly<Record<string, string>>
  >
> = {
  cors: {
    origin: "'http://localhost:5173'",
    methods: "['GET', 'POST', 'PUT']",
    allowedHeaders: "['content-type', 'authorization']",
    exposedHeaders: "['x-total-count']",
    credentials: 'true',
    maxAge: '600',
    preflightContinue: 'true',
    optionsSuccessStatus: '204',
  },
  mock: {
    cors: "'reflect'",
    origin: "'http://localhost:5173'",
    credentials: 'true',
    jsonpParam: "'callback'",
    bodyLimit: '1048576',
    logLimit: '1000',
  },
  jsonp: { param: "'callback'" },
  inspector: { exchanges: '500', bodyLimit: '65536' },
  recordings: {
    dir: "'cors-dev-proxy/recordings'",
    mask: "['x-tenant']",
    maxFiles: '1000',
    maxAnswers: '20',
    maxBodyBytes: '1048576',
    maxGap: '1000',
  },
  openapi: {
    document: "'./openapi.yaml'",
    enforce: "'request'",
    mock: "'missing'",
    maxBodyBytes: '1048576',
  },
  hooks: {
    proxyReq: '(proxyReq, req, res) => {}',
    proxyRes: '(proxyRes, req, res) => {}',
    error: '(err, req, res) => {}',
    proxyReqWs: '(proxyReq, req, socket, head) => {}',
  },
}
