import { type CorsDevProxyConfig, CorsDevProxyError } from '@cors-dev-proxy/core'

/*
 * The configuration a test's replay runs: the options given to `corsDevProxyFixtures`, laid over
 * the project's `cors-dev-proxy.config.*` when `configFile` asks for it. The file is read by the
 * CLI's own loader (`loadConfig` of the `cors-dev-proxy` package: the same names, the same
 * TypeScript support, the same errors), imported only then, once per worker and file.
 */

/** What the CLI package gives for this. */
interface ConfigLoader {
  loadConfig(
    cwd: string,
    explicit: string | undefined,
  ): Promise<{ readonly path: string | undefined; readonly config: Readonly<Partial<CorsDevProxyConfig>> }>
}

const FIX =
  'corsDevProxyFixtures({ configFile: true }) with cors-dev-proxy.config.ts beside playwright.config.ts, or pass the config: corsDevProxyFixtures(config)'

/** The CLI's loader; a clear error when the `cors-dev-proxy` package is not installed. */
async function configLoader(): Promise<ConfigLoader> {
  try {
    return (await import('cors-dev-proxy')) as ConfigLoader
  } catch {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      'configFile',
      'needs the cors-dev-proxy package, which reads the file as the CLI does: npm i -D cors-dev-proxy',
      "import config from './cors-dev-proxy.config'; corsDevProxyFixtures(config)",
    )
  }
}

/** Loaded files, per folder and name: a worker reads each once. */
const loaded = new Map<string, Promise<Partial<CorsDevProxyConfig>>>()

/** Reads the configuration file (`true`: looked for in `root`), once per worker. */
function readConfigFile(root: string, configFile: true | string): Promise<Partial<CorsDevProxyConfig>> {
  const key = `${root}\n${configFile}`
  let config = loaded.get(key)
  if (config === undefined) {
    config = configLoader().then(async ({ loadConfig }) => {
      const file = await loadConfig(root, configFile === true ? undefined : configFile)
      if (file.path === undefined) {
        throw new CorsDevProxyError(
          'INVALID_OPTION',
          'configFile',
          `found no cors-dev-proxy.config.* in ${root}`,
          FIX,
        )
      }
      return file.config
    })
    // A failed read is tried again by the next test, after the file was fixed.
    config.catch(() => loaded.delete(key))
    loaded.set(key, config)
  }
  return config
}

/**
 * The configuration of a test: `inline` (the fixtures' options), over the file's when
 * `configFile` is set (routes laid over by prefix, other options replaced). Throws
 * `CorsDevProxyError` when there are no routes at all.
 *
 * @example
 * await projectConfig({ routes: { '/api': 'http://localhost:3000' } }, false, process.cwd())
 */
export async function projectConfig(
  inline: Partial<CorsDevProxyConfig>,
  configFile: boolean | string | undefined,
  root: string,
): Promise<CorsDevProxyConfig> {
  const file = configFile === undefined || configFile === false ? {} : await readConfigFile(root, configFile)
  const routes = { ...file.routes, ...inline.routes }
  if (Object.keys(routes).length === 0) {
    const problem =
      configFile === undefined || configFile === false
        ? 'is empty: the replay needs the routes whose recordings it answers from'
        : 'is empty in the configuration file and in the fixtures options'
    throw new CorsDevProxyError('INVALID_ROUTES', 'routes', problem, FIX)
  }
  return { ...file, ...inline, routes }
}
