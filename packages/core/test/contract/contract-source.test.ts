import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createContractSource } from '../../src/contract/contract-source.js'
import { OPENAPI_DEFAULTS } from '../../src/contract/options/openapi-options.js'
import { createLogger } from '../../src/log/logger.js'

const PETSTORE = fileURLToPath(new URL('./fixtures/petstore-3.0.yaml', import.meta.url))
const folders: string[] = []
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
})

function logged() {
  const lines: string[] = []
  const push = (line: string) => lines.push(line)
  return { lines, logger: createLogger('info', { info: push, warn: push, error: push }) }
}

describe('createContractSource', () => {
  it('loads the document once, and again after its file changed', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cdp-contract-source-'))
    folders.push(folder)
    const file = join(folder, 'openapi.yaml')
    await writeFile(file, await readFile(PETSTORE))
    const { logger } = logged()
    const source = createContractSource(
      { ...OPENAPI_DEFAULTS, document: './openapi.yaml' },
      { root: folder, option: "routes['/api'].openapi", logger },
    )
    const first = await source.current()
    expect(await source.current()).toBe(first)
    expect(first?.findOperation('GET', '/v1/pets/7')?.id).toBe('GET /pets/{petId}')
    const text = (await readFile(PETSTORE, 'utf8')).replace('/pets/mine:', '/pets/ours:')
    await writeFile(file, text)
    const later = new Date(Date.now() + 5000)
    await utimes(file, later, later)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const second = await source.current()
    expect(second).not.toBe(first)
    expect(second?.findOperation('GET', '/v1/pets/ours')?.id).toBe('GET /pets/ours')
  })

  it('logs one line naming the option for a document that cannot be used, and gives no contract', async () => {
    const { lines, logger } = logged()
    const source = createContractSource(
      { ...OPENAPI_DEFAULTS, document: { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} } },
      { root: process.cwd(), option: "routes['/api'].openapi", logger },
    )
    expect(await source.current()).toBeUndefined()
    expect(await source.current()).toBeUndefined()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("routes['/api'].openapi")
    expect(lines[0]).toContain('not checked until the document loads')
  })
})
