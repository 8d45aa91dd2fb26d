import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { requestKey } from '../../../src/stand-ins/recordings/recording-key.js'
import { compareRequest, splitPath } from '../../../src/stand-ins/replay-session/replay-key.js'

/*
 * The in-memory replay's two promises: `@cors-dev-proxy/core/replay-session` imports nothing
 * from Node (it runs in the browser), and it compares a request as the recordings' key does
 * (the same masking, query order, ignored keys and body forms).
 */

const src = fileURLToPath(new URL('../../../src/', import.meta.url))

/** Every file the entry reaches, by its relative imports; the other specifiers seen. */
async function importGraph(entry: string) {
  const files = new Set<string>()
  const others = new Set<string>()
  const visit = async (file: string): Promise<void> => {
    if (files.has(file)) return
    files.add(file)
    const text = await readFile(file, 'utf8')
    for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^'"]*from '([^']+)'/gm)) {
      if (specifier?.startsWith('.')) await visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
      else if (specifier !== undefined) others.add(specifier)
    }
  }
  await visit(entry)
  return { files, others }
}

describe('@cors-dev-proxy/core/replay-session', () => {
  it('imports nothing from Node and uses no Node global', async () => {
    const { files, others } = await importGraph(join(src, 'replay-session.ts'))
    expect([...others]).toEqual([])
    expect(files.size).toBeGreaterThan(5)
    for (const file of files) {
      const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      expect({ file, node: code.match(/\b(Buffer|process|NodeJS|require)\b[.(:]/)?.[0] }).toEqual({
        file,
        node: undefined,
      })
    }
  })
})

describe('compareRequest', () => {
  const rules = { ignoreQuery: ['_t'], matchHeaders: [], body: 'exact' } as const
  it.each([
    ['GET', '/items?b=2&a=1&_t=5', undefined, undefined],
    ['GET', '/items?token=abc&page=2', undefined, undefined],
    ['POST', '/items', '{ "b": 1, "a": [1, {"y":2,"x":1}] }', 'application/json'],
    ['POST', '/login', '{"user":"ada","password":"hunter2"}', 'application/json'],
    ['POST', '/form', 'z=1&a=2&password=x', 'application/x-www-form-urlencoded'],
    ['POST', '/graphql', '{"query":"query  Items { items }","variables":{"b":1,"a":2}}', 'application/json'],
    ['POST', '/graphql', '{"query":"{ items }","operationName":"Items"}', 'application/json'],
    ['PUT', '/text', 'plain words', 'text/plain'],
  ])('%s %s compares as the key does', async (method, path, body, type) => {
    const key = requestKey(
      { method, path, body: body === undefined ? undefined : Buffer.from(body), contentType: type },
      { mask: true, maskNames: [] },
      { ignoreQuery: rules.ignoreQuery, matchHeaders: [] },
    )
    const request = new Request(`http://localhost/api${path}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { 'content-type': type ?? '' } }),
    })
    const compared = await compareRequest(request, path, rules, [])
    const fromKey = splitPath(key.path, rules.ignoreQuery)
    expect({ pathname: compared.pathname, query: compared.query, body: compared.body }).toEqual({
      ...fromKey,
      body: key.body,
    })
  })
})
