import {
  type CorsDevProxyConfig,
  CorsDevProxyError,
  type CorsDevProxyOptions,
  type Routes,
} from '@cors-dev-proxy/core'
import { REPLAY_MODES, type ReplayMode } from './replay-config.js'

/**
 * The options of `corsDevProxyFixtures`: the routes and shared options of `createCorsDevProxy`
 * (or a whole `defineConfig` object), where the configuration file is, and how calls are answered.
 *
 * @example
 * corsDevProxyFixtures({ routes: { '/api': { target: 'http://localhost:3000' } }, recordings: { dir: 'recordings' } })
 */
export interface CorsDevProxyFixturesOptions extends CorsDevProxyOptions, CorsDevProxyTestOptions {
  /**
   * Path prefix → target or route object, as in `cors-dev-proxy.config.*`. Laid over the
   * configuration file's routes, by prefix, when `configFile` is set.
   */
  routes?: Routes
  /**
   * Reads the project's configuration file as the CLI does: `true` finds
   * `cors-dev-proxy.config.{ts,mts,js,mjs,cjs,json}` in `root`, a string names the file (relative
   * to `root`). The options written here are laid over it. Needs the `cors-dev-proxy` package.
   * @default false
   * @example true
   */
  configFile?: boolean | string
  /**
   * The project's folder: where a relative `recordings.dir` and the routes' mock folders go, and
   * where `configFile` is looked for.
   * @default the folder of the Playwright configuration file
   * @example fileURLToPath(new URL('..', import.meta.url))
   */
  root?: string
}

/**
 * What one test (or a `test.describe`) may change, with `test.use({ corsDevProxy: { ... } })`.
 *
 * @example
 * test.use({ corsDevProxy: { mode: 'missing' } })
 */
export interface CorsDevProxyTestOptions {
  /**
   * `'replay'`: every call to a route is answered from its recordings and mocks, the target is
   * never contacted. `'missing'`: calls with a recording replay, the others go to the live
   * target and are recorded (`record: 'missing'`), to refresh the files.
   * @default 'replay'
   */
  mode?: ReplayMode
  /**
   * Fails the test, once it ends, when a call matched no recording (the page still got the
   * core's 404, whose body the failure shows). `false` lets a test check such a call itself.
   * @default true
   */
  failOnUnmatched?: boolean
}

const EXAMPLE = "corsDevProxyFixtures({ routes: { '/api': 'http://localhost:3000' }, mode: 'replay' })"

/**
 * Checks the options of ours (`mode`, `failOnUnmatched`, `configFile`, `root`) at `where`; the
 * core checks the rest when the replay is built. Throws `CorsDevProxyError`.
 *
 * @example
 * checkTestOptions({ mode: 'missing' }, 'corsDevProxy')
 */
export function checkTestOptions(options: CorsDevProxyFixturesOptions, where: string): void {
  const { mode, failOnUnmatched, configFile, root } = options
  if (mode !== undefined && !REPLAY_MODES.includes(mode)) {
    const problem = `is ${JSON.stringify(mode)}; use 'replay' (recordings only) or 'missing' (record what is missing)`
    throw new CorsDevProxyError('INVALID_OPTION', `${where}.mode`, problem, EXAMPLE)
  }
  if (failOnUnmatched !== undefined && typeof failOnUnmatched !== 'boolean') {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      `${where}.failOnUnmatched`,
      'must be true or false',
      EXAMPLE,
    )
  }
  if (configFile !== undefined && typeof configFile !== 'boolean' && typeof configFile !== 'string') {
    const fix = "corsDevProxyFixtures({ configFile: 'cors-dev-proxy.config.ts' })"
    throw new CorsDevProxyError('INVALID_OPTION', `${where}.configFile`, 'must be true or a file name', fix)
  }
  if (root !== undefined && (typeof root !== 'string' || root === '')) {
    const fix = "corsDevProxyFixtures({ root: fileURLToPath(new URL('.', import.meta.url)) })"
    throw new CorsDevProxyError('INVALID_OPTION', `${where}.root`, 'must be a folder path', fix)
  }
}

/**
 * Splits the fixtures' options into ours and the core's configuration (`{ routes, ...options }`),
 * the caller's object untouched.
 *
 * @example
 * splitFixturesOptions({ routes, mode: 'missing', log: 'debug' })
 * // [{ mode: 'missing' }, { routes, log: 'debug' }]
 */
export function splitFixturesOptions(
  options: CorsDevProxyFixturesOptions,
): [
  own: Pick<CorsDevProxyFixturesOptions, 'configFile' | 'root' | 'mode' | 'failOnUnmatched'>,
  config: Partial<CorsDevProxyConfig>,
] {
  const { configFile, root, mode, failOnUnmatched, ...config } = options
  return [{ configFile, root, mode, failOnUnmatched }, config]
}
