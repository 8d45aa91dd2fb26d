import { readFile } from 'node:fs/promises'
import { runInThisContext } from 'node:vm'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { jsonp, withCallbackParam } from '../../src/client/jsonp.js'
import { jsonpBody } from '../../src/jsonp/jsonp-response.js'

/**
 * The pure logic of the browser helper, against a tiny fake `document`: the real behaviour in
 * Chromium is covered by the browser tests. The fake records appended scripts; a test plays
 * the browser by running the answer (`respond`) or failing the load (`fail`).
 */
interface FakeScript {
  src: string
  async: boolean
  onload: (() => void) | null
  onerror: (() => void) | null
  removed: boolean
  remove(): void
}

let scripts: FakeScript[] = []
const scope = globalThis as unknown as Record<string, unknown>

beforeEach(() => {
  scripts = []
  const head = { appendChild: (script: FakeScript) => scripts.push(script) }
  scope.document = {
    head,
    documentElement: head,
    createElement: (): FakeScript => ({
      src: '',
      async: false,
      onload: null,
      onerror: null,
      removed: false,
      remove() {
        this.removed = true
      },
    }),
  }
})
afterEach(() => {
  delete scope.document
  vi.useRealTimers()
})

function callbackName(script: FakeScript, param = 'callback'): string {
  return new URL(script.src, 'http://page.test').searchParams.get(param)!
}

/** Plays the browser: executes the JSONP answer (as the server would send it), then fires load. */
function respond(script: FakeScript, value: unknown, param = 'callback'): void {
  runInThisContext(jsonpBody(callbackName(script, param), JSON.stringify(value)))
  script.onload?.()
}

function globalsLeft(): string[] {
  return Object.keys(scope).filter((key) => key.startsWith('__corsDevProxyJsonp_'))
}

describe('withCallbackParam', () => {
  it.each([
    ['/users', '/users?callback=cb'],
    ['/users?page=2', '/users?page=2&callback=cb'],
    ['/users?', '/users?callback=cb'],
    ['/users?a=1&', '/users?a=1&callback=cb'],
    ['/users#top', '/users?callback=cb#top'],
    ['/users?x=1#a?b', '/users?x=1&callback=cb#a?b'],
    ['http://api.test:3000/u?q=a%20b', 'http://api.test:3000/u?q=a%20b&callback=cb'],
  ])('%s → %s', (url, expected) => {
    expect(withCallbackParam(url, 'callback', 'cb')).toBe(expected)
  })

  it('encodes the parameter name', () => {
    expect(withCallbackParam('/x', 'c b', 'cb')).toBe('/x?c%20b=cb')
  })
})

describe('jsonp', () => {
  it('resolves with the value and cleans up', async () => {
    const promise = jsonp<{ ok: boolean }>('http://api.test/users?page=1')
    expect(scripts).toHaveLength(1)
    const script = scripts[0]!
    expect(script.async).toBe(true)
    expect(script.src).toMatch(/^http:\/\/api\.test\/users\?page=1&callback=__corsDevProxyJsonp_\w+_\d+$/)
    expect(globalsLeft()).toHaveLength(1)
    respond(script, { ok: true })
    await expect(promise).resolves.toEqual({ ok: true })
    expect(script.removed).toBe(true)
    expect(globalsLeft()).toEqual([])
  })

  it('uses a unique global name per call and the configured parameter', async () => {
    const first = jsonp('/a', { param: 'cb' })
    const second = jsonp('/b', { param: 'cb' })
    const [a, b] = scripts.map((script) => callbackName(script, 'cb'))
    expect(a).not.toBe(b)
    respond(scripts[1]!, 2, 'cb')
    respond(scripts[0]!, 1, 'cb')
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2])
  })

  it("rejects with 'request failed' when the script fails to load", async () => {
    const promise = jsonp('/x')
    scripts[0]!.onerror?.()
    await expect(promise).rejects.toThrow(new Error('request failed'))
    expect(scripts[0]!.removed).toBe(true)
    expect(globalsLeft()).toEqual([])
  })

  it("rejects with 'request failed' when the script loads without calling back", async () => {
    const promise = jsonp('/x')
    scripts[0]!.onload?.()
    await expect(promise).rejects.toThrow('request failed')
  })

  it("rejects with 'timed out' after the timeout, and a late answer is harmless", async () => {
    vi.useFakeTimers()
    const promise = jsonp('/x', { timeout: 500 })
    const assertion = expect(promise).rejects.toThrow(new Error('timed out'))
    vi.advanceTimersByTime(499)
    expect(scripts[0]!.removed).toBe(false)
    vi.advanceTimersByTime(1)
    await assertion
    expect(scripts[0]!.removed).toBe(true)
    expect(globalsLeft()).toEqual([])
    expect(() => respond(scripts[0]!, 'late')).not.toThrow()
  })

  it('waits forever with timeout 0', async () => {
    vi.useFakeTimers()
    const promise = jsonp('/x', { timeout: 0 })
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(10 * 60_000)
    respond(scripts[0]!, 'eventually')
    await expect(promise).resolves.toBe('eventually')
  })

  it('defaults to a 10 s timeout', async () => {
    vi.useFakeTimers()
    const promise = jsonp('/x')
    const assertion = expect(promise).rejects.toThrow('timed out')
    vi.advanceTimersByTime(9_999)
    expect(globalsLeft()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    await assertion
  })

  it("rejects with the signal's reason when aborted, and cleans up", async () => {
    vi.useFakeTimers()
    const controller = new AbortController()
    const promise = jsonp('/x', { signal: controller.signal })
    const reason = new Error('user left')
    controller.abort(reason)
    await expect(promise).rejects.toBe(reason)
    expect(scripts[0]!.removed).toBe(true)
    expect(globalsLeft()).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('does not even add a script for an already aborted signal', async () => {
    const promise = jsonp('/x', { signal: AbortSignal.abort('gone') })
    await expect(promise).rejects.toBe('gone')
    expect(scripts).toHaveLength(0)
  })

  it('is browser-only code: no imports at all', async () => {
    const source = await readFile(new URL('../../src/client/jsonp.ts', import.meta.url), 'utf8')
    expect(source).not.toMatch(/^\s*import\s/m)
    const index = await readFile(new URL('../../src/client/index.ts', import.meta.url), 'utf8')
    expect(index).not.toMatch(/from ['"](node:|\.\.\/)/)
  })
})
