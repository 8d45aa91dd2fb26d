/*
 * The defaults of the nested options (`inspector`, `recordings`, `mocks`, `cors`, `mock`,
 * `jsonp` objects), written once; the JSDoc `@default` of each nested option describes the same
 * values. A top-level option's default is in its entry of the option table (option-table.ts).
 */
import type { LogSink } from './option-value-types.js'

/**
 * A sink writing to the console: `console.log`, `console.warn`, `console.error`. The one default
 * sink, for the core's loggers and the CLI's; its methods do not use `this`, so they may be passed
 * on alone.
 *
 * @example
 * createLogger('info', consoleLogSink).info('ready')
 */
export const consoleLogSink: LogSink = Object.freeze({
  info(message: string) {
    console.log(message)
  },
  warn(message: string) {
    console.warn(message)
  },
  error(message: string) {
    console.error(message)
  },
})

/** Defaults of the exchange inspector (`InspectorOptions`); `inspector: true` means these. */
export const INSPECTOR_DEFAULTS = Object.freeze({
  /** Exchanges kept: enough for a page's worth of calls, a few hundred kilobytes of metadata. */
  exchanges: 200,
  /** Bytes of each body, copied only while an inspector is connected. */
  bodyLimit: 64 * 1024,
})

/** Defaults of the recordings (`RecordingsOptions`), for routes with `record` or `replay`. */
export const RECORDINGS_DEFAULTS = Object.freeze({
  /** Under the working directory (the adapters: the dev server's root); no `package.json` needed. */
  dir: 'cors-dev-proxy/recordings',
  /** Files in the whole folder: beyond it, recording stops (and says so once). */
  maxFiles: 1000,
  /** Answers kept per file: the oldest goes first. */
  maxAnswers: 20,
  /** An answer or request body larger than this is not recorded (said once per route). */
  maxBodyBytes: 1024 * 1024,
  /** The longest pause between two replayed pieces of an event stream, in ms. */
  maxGap: 1000,
})

/** Defaults of a route's `mocks`: the folder its mock files are read from and written to. */
export const MOCKS_DEFAULTS = Object.freeze({
  /** Beside the recordings, one sub-folder per route (`api` for `/api`); no `package.json` needed. */
  dir: 'cors-dev-proxy/mocks',
  /** Bytes of a request body a function mock is given; a longer one is answered 413. */
  maxBodyBytes: 1024 * 1024,
})

/** Defaults of a CORS policy (`CorsOptions`) besides `origin`, whose default is the loopback rule. */
export const CORS_DEFAULTS = Object.freeze({
  /** The `cors` package's method list, kept for the same meaning. */
  methods: 'GET,HEAD,PUT,PATCH,POST,DELETE',
  credentials: false,
  preflightContinue: false,
  optionsSuccessStatus: 204,
})

/** Defaults of the mock backend (`MockBackendOptions`). */
export const MOCK_DEFAULTS = Object.freeze({
  cors: 'off' as const,
  /** The callback parameter's name, as jQuery and Express use it. */
  jsonpParam: 'callback' as string,
  /** Bytes: 1 MiB. */
  bodyLimit: 1024 * 1024,
  logLimit: 1000,
})

/** Defaults of `jsonp: true`. */
export const JSONP_DEFAULTS = Object.freeze({
  /** The callback parameter's name, as jQuery and Express use it. */
  param: MOCK_DEFAULTS.jsonpParam,
})
