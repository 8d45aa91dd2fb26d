import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { keepFetchHintOverNext } from '../src/next-fetch-hint.js'

// Next's own fetch as its patch-fetch builds it: a wrapper over what globalThis.fetch was, whose
// request de-duplication builds a Request from the URL (and so throws on a path-only URL), marked
// __nextPatched, with the fetch underneath as _nextOriginalFetch.
function nextStyleFetch(under: typeof fetch, calls: string[]): typeof fetch {
  const patched = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push(`next ${String(input)}`)
    return under(new Request(input, init))
  }
  return Object.assign(patched, { __nextPatched: true, _nextOriginalFetch: under }) as typeof fetch
}

const real = Object.getOwnPropertyDescriptor(globalThis, 'fetch') as PropertyDescriptor
let calls: string[]
let undo: () => void

beforeEach(() => {
  calls = []
  // What the core's hint leaves in place when the proxy starts: a wrapper over Node's fetch.
  globalThis.fetch = async (input: string | URL | Request) => {
    calls.push(`hint ${input instanceof Request ? input.url : String(input)}`)
    return new Response('under')
  }
  undo = keepFetchHintOverNext()
})

afterEach(() => {
  undo()
  Object.defineProperty(globalThis, 'fetch', real)
})

describe('keepFetchHintOverNext', () => {
  it("sends a path-only URL past Next's fetch to the hint, everything else through Next's", async () => {
    const hint = globalThis.fetch
    globalThis.fetch = nextStyleFetch(hint, calls)
    await globalThis.fetch('/api/missed')
    await globalThis.fetch('http://127.0.0.1:3000/api/items')
    expect(calls).toEqual([
      'hint /api/missed',
      'next http://127.0.0.1:3000/api/items',
      'hint http://127.0.0.1:3000/api/items',
    ])
  })

  it("keeps Next's marks on the fetch it sees, so Next does not patch again", () => {
    const hint = globalThis.fetch
    globalThis.fetch = nextStyleFetch(hint, calls)
    const seen = globalThis.fetch as typeof fetch & { __nextPatched?: boolean; _nextOriginalFetch?: unknown }
    expect(seen.__nextPatched).toBe(true)
    expect(seen._nextOriginalFetch).toBe(hint)
  })

  it('leaves any other fetch assigned as it is', () => {
    const other = (async () => new Response('other')) as typeof fetch
    globalThis.fetch = other
    expect(globalThis.fetch).toBe(other)
  })

  it('puts a plain property back when undone, holding the fetch of the moment', () => {
    const other = (async () => new Response('other')) as typeof fetch
    globalThis.fetch = other
    undo()
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch')
    expect(descriptor).toMatchObject({ value: other, writable: true, configurable: true })
  })
})
