import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
import { startCliServer } from '../../packages/cli/test/support/cli-process.js'
import type { RunningProxy } from '../support/reverse-proxy.js'

/**
 * A configuration as JavaScript source, for a `cors-dev-proxy.config.mjs`: the parity configs
 * hold RegExps (CORS origin patterns), which JSON cannot carry. Functions are refused: the
 * exports cannot carry them either, so no parity config has one.
 */
function toSource(value: unknown): string {
  if (value instanceof RegExp) return value.toString()
  if (Array.isArray(value)) return `[${value.map(toSource).join(', ')}]`
  if (value !== null && typeof value === 'object') {
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}: ${toSource(inner)}`)
      .join(', ')} }`
  }
  if (typeof value === 'function') throw new Error('a parity config cannot hold a function')
  return JSON.stringify(value)
}

/**
 * The dev proxy the exports are compared with: the real `cors-dev-proxy serve`, in a child
 * process on a free port, reading the configuration from a `cors-dev-proxy.config.mjs` in a
 * temporary folder, as a user runs it. The parity suite and the exports' live tests both start
 * the dev proxy through this one function.
 *
 * @example
 * const dev = await startDevProxy({ routes: { '/api': backend.origin }, log: 'silent' })
 */
export async function startDevProxy(config: CorsDevProxyConfig): Promise<RunningProxy> {
  const folder = await mkdtemp(join(tmpdir(), 'cdp-parity-'))
  const file = join(folder, 'cors-dev-proxy.config.mjs')
  await writeFile(file, `export default ${toSource(config)}\n`)
  const serve = await startCliServer(['serve', '--config', file, '--port', '0'], { cwd: folder })
  return {
    origin: serve.origin,
    output: () => serve.output(),
    async stop() {
      await serve.stop()
      await rm(folder, { recursive: true, force: true })
    },
  }
}
