import { readdir } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { type CorsDevProxyConfig, CorsDevProxyError } from '@cors-dev-proxy/core'
import {
  type Contract,
  loadContract,
  type ResolvedForwardRoute,
  type ResolvedRecordingsOptions,
  readRouteRecordings,
  resolveOptions,
} from '@cors-dev-proxy/core/adapter'
import { readRoute } from '../args/flag-values.js'
import type { ParsedFlags } from '../args/parse-flags.js'
import { UsageError } from '../args/usage-error.js'
import { checkRecordings, type RecordingsRoute } from '../check/check-recordings.js'
import {
  type CheckedRoute,
  formatDocumentReport,
  formatRecordingsReport,
  recordingsExitCode,
} from '../check/contract-report.js'
import { configRoute, routePrefix } from '../config/config-route.js'
import { loadConfig } from '../config/load-config.js'
import type { CommandContext } from '../io.js'

/*
 * `cors-dev-proxy check --openapi DOCUMENT [--recordings DIR]`: the contract check of CI. The
 * document alone is loaded as a route's `openapi` is (every `$ref` resolved, every schema
 * compiled): exit 0 when it can check exchanges, 2 with what makes it unusable. With
 * `--recordings`, every recorded exchange of the routes is checked (check/check-recordings.ts):
 * 0 clean, 1 with violations, 2 for a file that is not a recording.
 */

/** The `check` flags of the CORS check, which make no sense with `--openapi`. */
const CORS_CHECK_FLAGS = [
  'origin',
  'method',
  'header',
  'body-type',
  'redirect',
  'page-address-space',
  'timeout',
]

/** The examples `--openapi`'s mistakes show. */
export const OPENAPI_EXAMPLES = Object.freeze({
  document: 'cors-dev-proxy check --openapi ./openapi.yaml',
  recordings:
    'cors-dev-proxy check --openapi ./openapi.yaml --recordings cors-dev-proxy/recordings --route /api',
})

/** `check --openapi` over a recordings folder, with the folder and route given. */
function recordingsExample(dir: string, route: string): string {
  return `cors-dev-proxy check --openapi ./openapi.yaml --recordings ${dir} --route ${route}`
}

/** Refuses the flags of one check given with the other's. */
export function refuseMixedChecks(flags: ParsedFlags): void {
  const openapi = flags.string('openapi') !== undefined
  if (!openapi) {
    const given = ['recordings', 'route', 'config'].find((name) => flags.has(name))
    if (given !== undefined) {
      throw new UsageError(
        `--${given} goes with --openapi: it names what to check against the document`,
        OPENAPI_EXAMPLES.recordings,
      )
    }
    return
  }
  const cors = CORS_CHECK_FLAGS.find((name) => flags.has(name))
  if (flags.positionals.length > 0 || cors !== undefined) {
    throw new UsageError(
      `--openapi checks a document (and recordings), not a call: ${cors === undefined ? 'a URL' : `--${cors}`} belongs to the CORS check; run them as two commands`,
      OPENAPI_EXAMPLES.recordings,
    )
  }
  if ((flags.has('route') || flags.has('config')) && !flags.has('recordings')) {
    throw new UsageError(
      `--${flags.has('route') ? 'route' : 'config'} says which routes' recordings to check: give --recordings DIR too`,
      OPENAPI_EXAMPLES.recordings,
    )
  }
}

/** A `--route` value: `PREFIX` (the config file's route, else a bare one) or `PREFIX=TARGET`. */
async function routeOf(
  value: string,
  cwd: string,
  dir: string,
  config: string | undefined,
): Promise<ResolvedForwardRoute> {
  if (value.includes('=')) {
    const [prefix, target] = readRoute(value, recordingsExample(dir, '/api=http://127.0.0.1:3000/v1'))
    return resolveOptions({ [prefix]: target }).routes[0] as ResolvedForwardRoute
  }
  const prefix = routePrefix(value)
  const found = await configRoute(cwd, prefix, config, (first) => recordingsExample(dir, first))
  return found.route
}

/** The routes to check: `--route`'s, else every forwarding route of the config file. */
async function routesToCheck(flags: ParsedFlags, cwd: string, dir: string): Promise<ResolvedForwardRoute[]> {
  const config = flags.string('config')
  const given = flags.strings('route')
  const written = flags.string('recordings') ?? 'cors-dev-proxy/recordings'
  if (given.length > 0) return Promise.all(given.map((value) => routeOf(value, cwd, written, config)))
  const loaded = await loadConfig(cwd, config)
  if (loaded.path === undefined) {
    const folders = await readdir(dir, { withFileTypes: true }).catch(() => [])
    const names = folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    throw new UsageError(
      `without a config file, --route PREFIX says which route's recordings to check and how its paths reach the backend (${relative(cwd, dir) || '.'} holds ${names.join(', ') || 'no route folders'})`,
      recordingsExample(written, `/${names[0] ?? 'api'}`),
    )
  }
  const resolved = resolveOptions(loaded.config as CorsDevProxyConfig)
  return resolved.routes.filter((one): one is ResolvedForwardRoute => one.kind === 'forward')
}

/** The document loaded, or the exit code 2 with what makes it unusable printed. */
async function loadDocument(document: string, context: CommandContext, json: boolean): Promise<Contract | 2> {
  try {
    return await loadContract(document, { cwd: context.cwd, option: '--openapi' })
  } catch (error) {
    if (!(error instanceof CorsDevProxyError)) throw error
    if (json)
      context.io.out(JSON.stringify({ document, usable: false, error: error.message, exitCode: 2 }, null, 2))
    else context.io.err(`the document cannot be used for checking (exit 2): ${error.message}`)
    return 2
  }
}

/**
 * Runs `check --openapi`: the document alone, or with `--recordings` every recorded exchange.
 * Resolves with the exit code.
 *
 * @example
 * return runOpenapiCheck(flags, context)
 */
export async function runOpenapiCheck(flags: ParsedFlags, context: CommandContext): Promise<number> {
  const document = flags.string('openapi') as string
  const json = flags.boolean('json')
  const contract = await loadDocument(document, context, json)
  if (contract === 2) return 2
  const facts = { document, contract }
  const recordings = flags.string('recordings')
  if (recordings === undefined) {
    const operations = contract.operations.map((operation) => operation.id)
    const text = json
      ? JSON.stringify(
          { document, usable: true, version: contract.version, operations, exitCode: 0 },
          null,
          2,
        )
      : formatDocumentReport(facts)
    context.io.out(text)
    return 0
  }
  const dir = resolve(context.cwd, recordings)
  const routes = await routesToCheck(flags, context.cwd, dir)
  // Only `dir` is read: the folder is the one given, whatever the config file's recordings.dir.
  const options: ResolvedRecordingsOptions = {
    ...resolveOptions({ '/': 'http://localhost' }).recordings,
    dir,
  }
  const read: RecordingsRoute[] = []
  for (const route of routes) {
    const folder = await readRouteRecordings(route.prefix, options, context.cwd)
    // Without --route, a route of the config file that recorded nothing is not part of the check.
    if (folder.files.length > 0 || flags.strings('route').length > 0) read.push({ route, ...folder })
  }
  const result = await checkRecordings(contract, read, context.cwd)
  if (result.files === 0) {
    throw new UsageError(
      `no recordings in ${read.map((one) => relative(context.cwd, one.folder)).join(', ') || relative(context.cwd, dir) || '.'}: record them first (record: true on the route), or give the folder that holds them (recordings.dir)`,
      OPENAPI_EXAMPLES.recordings,
    )
  }
  const checked: CheckedRoute[] = read.map(({ route, folder }) => ({
    prefix: route.prefix,
    target: route.target.href,
    folder: relative(context.cwd, folder) || '.',
  }))
  const exitCode = recordingsExitCode(result)
  context.io.out(
    json
      ? JSON.stringify({ document, version: contract.version, routes: checked, ...result, exitCode }, null, 2)
      : formatRecordingsReport(facts, checked, result),
  )
  return exitCode
}
