import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMockFolder } from '../../../src/stand-ins/route-mocks/mock-folder.js'

const roots: string[] = []
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true })
})

async function folder() {
  const root = await mkdtemp(join(tmpdir(), 'cors-dev-proxy-mock-folder-'))
  roots.push(root)
  return { root, folder: createMockFolder(join(root, 'mocks'), root), path: join(root, 'mocks') }
}

describe('createMockFolder', () => {
  it('has no rules while the folder does not exist', async () => {
    const { folder: mocks } = await folder()
    expect(await mocks.rules()).toEqual([])
  })

  it('sees edits of the same size, one right after the other, each on the next read', async () => {
    const { folder: mocks } = await folder()
    await mocks.write('GET /a', JSON.stringify({ json: { v: 0 } }))
    const [rule] = await mocks.rules()
    expect(rule?.key).toBe('GET /a')
    for (let v = 1; v <= 20; v += 1) {
      await writeFile(join(mocks.path, 'GET _a.json'), JSON.stringify({ json: { v } }))
      const answer = await mocks.answer(rule as NonNullable<typeof rule>)
      expect('body' in answer && JSON.parse(answer.body.toString())).toEqual({ v: v })
    }
  })

  it('lists only the files it would write, most specific first, and says what is wrong with a file', async () => {
    const { folder: mocks, path } = await folder()
    await mocks.write('/users/*', JSON.stringify({ body: 'any' }))
    await mocks.write('GET /users/:id', JSON.stringify({ json: {} }))
    await mocks.write('GET /users/me', '[1]')
    await writeFile(join(path, 'README.md'), 'notes')
    const rules = await mocks.rules()
    expect(rules.map((rule) => rule.key)).toEqual(['GET /users/me', 'GET /users/:id', '/users/*'])
    expect(await mocks.answer(rules[0] as (typeof rules)[0])).toEqual({
      field: '',
      problem: 'must be an object { status, headers, json | body }, got an array',
    })
    expect(mocks.label('GET _users_me.json')).toBe(join('mocks', 'GET _users_me.json'))
  })

  it('writes inside its folder only, whatever the key holds', async () => {
    const { folder: mocks, root } = await folder()
    const label = await mocks.write('GET /../../escape', '{}')
    expect(await readdir(root)).toEqual(['mocks'])
    expect(label).toBe(join('mocks', 'GET _.._.._escape.json'))
    expect((await mocks.rules()).map((rule) => rule.name)).toEqual(['GET _.._.._escape.json'])
    await expect(mocks.write('not a key', '{}')).rejects.toThrow("'not a key' is not a mock key")
  })
})
