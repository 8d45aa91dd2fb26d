import { afterEach, describe, expect, it } from 'vitest'
import {
  type RunningMockBackend,
  startMockBackend,
} from '../../../src/stand-ins/mock-backend/start-mock-backend.js'

describe('?redirect=', () => {
  let mock: RunningMockBackend | undefined
  afterEach(async () => {
    await mock?.close()
    mock = undefined
  })

  it.each([
    ['/next?a=1', undefined, 302],
    ['/next', '301', 301],
    ['/', '308', 308],
  ])('answers %s with status %s as %i and the Location as written', async (target, status, expected) => {
    mock = await startMockBackend({ cors: 'reflect' })
    const query = new URLSearchParams({ redirect: target, ...(status ? { status } : {}) })
    const res = await fetch(`${mock.origin}/login?${query}`, {
      redirect: 'manual',
      headers: { origin: 'http://localhost:5173' },
    })
    expect(res.status).toBe(expected)
    expect(res.headers.get('location')).toBe(target)
    // The CORS switches still apply, as on any answer of the mock.
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(await res.json()).toEqual({ redirect: target })
  })

  it('sends an absolute URL on its own origin as it is', async () => {
    mock = await startMockBackend()
    const target = `${mock.origin}/home?x=1`
    const res = await fetch(`${mock.origin}/login?redirect=${encodeURIComponent(target)}`, {
      redirect: 'manual',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(target)
  })

  it.each([
    ['redirect=http://example.com/x', 'never another origin'],
    ['redirect=/next&status=200', 'needs a 3xx status, got 200'],
    ['redirect=//example.com/x', 'switch "redirect"'],
  ])('refuses %s with 400 and no Location', async (query, message) => {
    mock = await startMockBackend()
    const res = await fetch(`${mock.origin}/login?${query}`, { redirect: 'manual' })
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
    expect((await res.json()).error).toContain(message)
  })
})
