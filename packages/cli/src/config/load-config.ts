/*
 * config/: the CLI's configuration. This file finds and loads `cors-dev-proxy.config.*` from the
 * working directory or `--config` (TypeScript through jiti); apply-flags.ts lays the flags over
 * the file; resolve-config.ts resolves it with the core's `resolveOptions`, naming the flags
 * behind an error. A file that cannot be read or loaded is a `ConfigFileError`
 * (config-file-error.ts): exit code 2 with the fix.
 */
import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
import { ConfigFileError } from './config-file-error.js'

/** The names a configuration file is looked for under, in this order, in the working directory. */
export const CONFIG_FILE_NAMES: readonly string[] = Object.freeze(
  ['ts', 'mts', 'js', 'mjs', 'cjs', 'json'].map((extension) => `cors-dev-proxy.config.${extension}`),
)

const EXTENSIONS: readonly string[] = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json']
const FIX = "export default defineConfig({ routes: { '/api': 'http://localhost:3000' } })"

/** A configuration as a command reads it: `{ routes?, ...options }`, and the file it came from. */
export interface LoadedConfig {
  /** The file's absolute path, or `undefined` when there is none. */
  readonly path: string | undefined
  /** The file's object as it exported it (never mutated), or `{}` without a file. */
  readonly config: Readonly<Partial<CorsDevProxyConfig>>
}

/**
 * The configuration file a command reads: `explicit` (the `--config` flag, relative to `cwd`),
 * else the first of {@link CONFIG_FILE_NAMES} that exists in `cwd`, else none.
 *
 * @example
 * findConfigFile('/app', undefined) // '/app/cors-dev-proxy.config.ts' when it exists
 */
export function findConfigFile(cwd: string, explicit: string | undefined): string | undefined {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit)
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new ConfigFileError(
        `--config ${explicit}: no such file (looked for ${path})`,
        `--config ./cors-dev-proxy.config.mjs, or one of ${CONFIG_FILE_NAMES.join(', ')} in the working directory`,
      )
    }
    if (!EXTENSIONS.includes(extname(path))) {
      throw new ConfigFileError(
        `--config ${explicit}: cannot load a "${extname(path)}" file; use .ts, .mts, .js, .mjs, .cjs or .json`,
        '--config ./cors-dev-proxy.config.mjs',
      )
    }
    return path
  }
  return CONFIG_FILE_NAMES.map((name) => resolve(cwd, name)).find((path) => existsSync(path))
}

/**
 * Imports a file's default export: JSON is parsed, JavaScript is imported natively (ESM or
 * CommonJS), and TypeScript goes through jiti, since Node 20 cannot import `.ts` by itself.
 */
async function importConfig(path: string): Promise<unknown> {
  const extension = extname(path)
  if (extension === '.json') return JSON.parse(await readFile(path, 'utf8')) as unknown
  if (extension === '.ts' || extension === '.mts' || extension === '.cts') {
    const { createJiti } = await import('jiti')
    // No module cache: a config edited between two runs in one process is read again.
    const jiti = createJiti(import.meta.url, { moduleCache: false })
    return jiti.import(path, { default: true })
  }
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown }
  return module.default ?? module
}

/**
 * Finds and loads the configuration (see {@link findConfigFile}). The file must export an object
 * (`export default defineConfig({ routes, ...options })`, `module.exports = {...}` or a JSON
 * object); what it holds is validated later by the core, with the rest of the configuration.
 * Throws {@link ConfigFileError} when the file is missing, fails to load, or exports something else.
 *
 * @example
 * const { path, config } = await loadConfig(process.cwd(), flags.string('config'))
 */
export async function loadConfig(cwd: string, explicit: string | undefined): Promise<LoadedConfig> {
  const path = findConfigFile(cwd, explicit)
  if (path === undefined) return { path: undefined, config: {} }
  let loaded: unknown
  try {
    loaded = await importConfig(path)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new ConfigFileError(`could not load ${basename(path)}: ${message.split('\n')[0]}`)
  }
  if (typeof loaded !== 'object' || loaded === null || Array.isArray(loaded)) {
    throw new ConfigFileError(
      `${basename(path)} must export an object of { routes, ...options }, got ${Array.isArray(loaded) ? 'an array' : typeof loaded}`,
      FIX,
    )
  }
  return { path, config: loaded as Partial<CorsDevProxyConfig> }
}
