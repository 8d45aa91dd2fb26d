import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ViteDevServer } from 'vite8'
import { createServer as createViteServer } from 'vite8'

/** A running Vite 8 dev server, configured the way `ng serve` configures it. */
export interface ViteHandle {
  origin: string
  logs: string[]
  close(): Promise<void>
}

/**
 * Starts Vite 8 with `proxy` as `server.proxy` and the `server.cors` Angular sets
 * (`preflightContinue: true`), on 127.0.0.1 port 0.
 */
export async function startNgServeVite(proxy: unknown): Promise<ViteHandle> {
  const root = await mkdtemp(join(tmpdir(), 'cdp-angular-'))
  await writeFile(join(root, 'index.html'), '<!doctype html><title>fixture</title>')
  const server: ViteDevServer = await createViteServer({
    configFile: false,
    root,
    cacheDir: join(root, '.vite'),
    appType: 'custom',
    logLevel: 'silent',
    optimizeDeps: { noDiscovery: true, include: [] },
    server: {
      host: '127.0.0.1',
      port: 0,
      watch: null,
      proxy: proxy as never,
      cors: { preflightContinue: true },
    },
  })
  const listening = once(server.httpServer!, 'listening')
  server.httpServer!.listen(0, '127.0.0.1')
  await listening
  const { port } = server.httpServer!.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    logs: [],
    async close() {
      await server.close()
      await rm(root, { recursive: true, force: true })
    },
  }
}

/** The first rule whose replacement changes the path, as Angular's `pathRewriter` applies a `pathRewrite` map. */
function angularPathRewriter(rules: Array<[RegExp, string]>, path: string): string {
  for (const [pattern, value] of rules) {
    const updated = path.replace(pattern, value)
    if (updated !== path) return updated
  }
  return path
}

/**
 * What `ng serve`'s `application` builder hands Vite's `server.proxy` from a proxy file
 * (`@angular/build`'s `loadProxyConfiguration`, `normalizeProxyConfiguration`): the array form
 * becomes one key per `context` string, and a `pathRewrite` object becomes a `rewrite` function.
 * Glob keys are left out: Angular turns them into RegExp keys, which `angularProxy` refuses.
 */
export function asAngularLoads(config: unknown): Record<string, unknown> {
  const copy = structuredCloneEntries(config)
  let entries: Record<string, Record<string, unknown> | string> = {}
  if (Array.isArray(copy)) {
    for (const entry of copy as Array<Record<string, unknown>>) {
      const { context, ...rest } = entry
      for (const key of context as string[]) entries[key] = rest
    }
  } else entries = copy as typeof entries
  for (const entry of Object.values(entries)) {
    if (typeof entry !== 'object' || typeof entry.pathRewrite !== 'object') continue
    const rules = Object.entries(entry.pathRewrite as Record<string, string>).map(
      ([pattern, value]): [RegExp, string] => [new RegExp(pattern), value],
    )
    entry.rewrite = angularPathRewriter.bind(undefined, rules)
    delete entry.pathRewrite
  }
  return entries
}

/** A copy of the entries one level deep (functions kept), so Angular's normalising never touches the caller's. */
function structuredCloneEntries(config: unknown): unknown {
  if (Array.isArray(config)) return config.map((entry) => ({ ...entry }))
  return Object.fromEntries(
    Object.entries(config as Record<string, unknown>).map(([key, entry]) => [
      key,
      typeof entry === 'object' && entry !== null ? { ...entry } : entry,
    ]),
  )
}
