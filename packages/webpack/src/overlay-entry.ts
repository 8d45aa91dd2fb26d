import { createHash } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The parts of a webpack or Rspack compiler the added entry needs. */
interface CompilerLike {
  context: string
  options?: { target?: unknown }
  webpack?: {
    EntryPlugin?: new (
      context: string,
      entry: string,
      options: { name?: string },
    ) => { apply(compiler: unknown): void }
  }
}

let entryFile: string | undefined

/**
 * The client, written to a file of its own (an entry must be a module on disk), once per
 * process, under a name that is the hash of its source: every process and version reuses its
 * one file, and nothing accumulates in the temporary folder (a dev server stopped with Ctrl-C
 * runs no clean-up).
 */
function overlayEntryFile(source: string): string {
  if (entryFile !== undefined) return entryFile
  const directory = join(tmpdir(), 'cors-dev-proxy')
  const file = join(
    directory,
    `overlay-client-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.js`,
  )
  mkdirSync(directory, { recursive: true })
  // Written to a name of this process's first, then renamed: another process reading the file
  // never sees it half written.
  const partial = `${file}.${process.pid}.tmp`
  writeFileSync(partial, source)
  renameSync(partial, file)
  entryFile = file
  return file
}

/** Node and Electron main-process builds have no page: no overlay there. */
function isWebTarget(compiler: CompilerLike): boolean {
  const target = compiler.options?.target
  const targets = Array.isArray(target) ? target : [target]
  return !targets.some(
    (item) => typeof item === 'string' && /^(node|async-node|electron-main|electron-preload)/.test(item),
  )
}

/**
 * Adds the overlay's client to every entry of the dev server's compiler(s), as
 * webpack-dev-server adds its own client: through `EntryPlugin` with no name (a global entry,
 * bundled before each entry's modules). Only `devServer` runs this, from `setupMiddlewares`,
 * which webpack-dev-server 5/6 and `@rspack/dev-server` call before the first compilation
 * starts (webpack-dev-middleware is created after it), so `webpack build` never contains it, and
 * it works with the dev server's own client off (`client: false`, `hot: false`) and a static
 * HTML file that loads the bundle, without html-webpack-plugin. Returns whether it was added.
 *
 * @example
 * if (proxy.overlayClient) addOverlayEntry(devServer.compiler, proxy.overlayClient.source)
 */
export function addOverlayEntry(compiler: unknown, source: string): boolean {
  if (typeof compiler !== 'object' || compiler === null) return false
  const compilers = ((compiler as { compilers?: CompilerLike[] }).compilers ?? [compiler]) as CompilerLike[]
  let added = false
  for (const one of compilers) {
    const EntryPlugin = one.webpack?.EntryPlugin
    if (EntryPlugin === undefined || !isWebTarget(one)) continue
    new EntryPlugin(one.context, overlayEntryFile(source), { name: undefined }).apply(one)
    added = true
  }
  return added
}
