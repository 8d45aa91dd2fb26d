import { stat } from 'node:fs/promises'
import type { Logger } from '../log/logger.js'
import type { Contract } from './contract-types.js'
import { loadContract } from './load-contract.js'
import type { ResolvedOpenApiOptions } from './options/openapi-options.js'
import { type OpenApiDocumentSource, openApiDocumentSource } from './options/resolve-openapi-options.js'

/*
 * A route's document, loaded once per proxy on the first exchange that needs it (a cached
 * promise, so a route that is never called never loads the parser or Ajv), and again when its
 * file changes: a `stat` at most once a second, from the exchanges themselves, so nothing
 * watches the file between calls and nothing is left open when the proxy closes.
 */

/** How long a file's `stat` is trusted before the next exchange looks again. */
const RESTAT_MS = 1000

/** A route's contract, as loaded now. */
export interface ContractSource {
  /** The contract, or `undefined` when the document cannot be used (logged once per load). */
  current(): Promise<Contract | undefined>
}

/**
 * The loader of a route's `openapi` document. A document that cannot be used logs one error
 * line naming the option and leaves the route unchecked until the file changes; nothing throws.
 *
 * @example
 * const source = createContractSource(route.openapi, { root, option: "routes['/api'].openapi", logger })
 * const contract = await source.current()
 */
export function createContractSource(
  openapi: ResolvedOpenApiOptions,
  where: { readonly root: string; readonly option: string; readonly logger: Logger },
): ContractSource {
  const source = openApiDocumentSource(openapi.document, where.root)
  let loaded: Promise<Contract | undefined> | undefined
  let checkedAt = Number.NEGATIVE_INFINITY
  let mtime: number | undefined
  const load = (): Promise<Contract | undefined> => {
    loaded ??= loadContract(documentOf(source), {
      cwd: where.root,
      maxBodyBytes: openapi.maxBodyBytes,
      option: where.option,
    }).catch((error: unknown) => {
      // The error's own text names the option and the fix; the tag is the logger's to add.
      const text = (error instanceof Error ? error.message : String(error)).replace(
        /^\[cors-dev-proxy\]\s*/,
        '',
      )
      const [head, ...fix] = text.split('\n')
      where.logger.error(
        [
          `${head}; the route's exchanges are not checked until the document loads (a file is read again when it changes)`,
          ...fix,
        ].join('\n'),
      )
      return undefined
    })
    return loaded
  }
  const file = source.kind === 'file' ? source.path : undefined
  return {
    current() {
      const now = performance.now()
      if (file === undefined || now - checkedAt < RESTAT_MS) return load()
      checkedAt = now
      return stat(file).then(
        (stats) => {
          if (mtime !== undefined && stats.mtimeMs !== mtime) loaded = undefined
          mtime = stats.mtimeMs
          return load()
        },
        () => load(),
      )
    },
  }
}

/** What `loadContract` reads: a file's absolute path, a URL, or a copy of the object (the parser dereferences in place). */
function documentOf(source: OpenApiDocumentSource): string | URL | object {
  if (source.kind === 'file') return source.path
  if (source.kind === 'url') return source.url
  return structuredClone(source.document)
}
