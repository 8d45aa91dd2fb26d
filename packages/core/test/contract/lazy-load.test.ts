import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const core = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Run in a fresh Node: import the built main entry, list the checker's libraries in the module
 * cache (all are CommonJS, so each file they load is there), then load a document and list
 * them again. The second list proves the first one could see them.
 */
const SCRIPT = `
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const CHECKER = /[\\\\/]node_modules[\\\\/](ajv|ajv-formats|ajv-draft-04|@apidevtools[\\\\/][^\\\\/]+|js-yaml)[\\\\/]/
const loaded = () => Object.keys(require.cache).filter((file) => CHECKER.test(file))
await import('./dist/index.js')
await import('./dist/adapter.js')
const withoutOpenapi = loaded()
const { loadContract } = await import('./dist/contract/load-contract.js')
await loadContract('test/contract/fixtures/petstore-3.0.yaml', { cwd: process.cwd() })
const names = loaded().map((file) => file.replace(/^.*[\\\\/]node_modules[\\\\/]/, '').match(/^(@[^\\\\/]+[\\\\/])?[^\\\\/]+/)?.[0].replace('\\\\', '/'))
console.log(JSON.stringify({ withoutOpenapi, withOpenapi: [...new Set(names)].sort() }))
`

describe('the checker loads only when a document is loaded', () => {
  it('keeps Ajv and swagger-parser out of the core entry points, and loads them for a document', async () => {
    expect(existsSync(`${core}/dist/contract/load-contract.js`), 'run pnpm build first').toBe(true)
    const run = promisify(execFile)
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: core })
    const { withoutOpenapi, withOpenapi } = JSON.parse(stdout) as {
      withoutOpenapi: string[]
      withOpenapi: string[]
    }
    expect(withoutOpenapi).toEqual([])
    expect(withOpenapi).toEqual(
      expect.arrayContaining(['@apidevtools/swagger-parser', 'ajv', 'ajv-formats', 'js-yaml']),
    )
  })
})
