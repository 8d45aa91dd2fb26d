import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  type ConnectLayer,
  exemptProxiedRoutesFromViteCors,
  moveAfterViteHostCheck,
  viteChecksBefore,
} from '../src/connect-stack.js'

type Handle = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/** A layer whose handle has the given function name, recording the calls it gets. */
function layer(name: string, calls: string[] = []): ConnectLayer {
  const handle = {
    [name]: (_req: IncomingMessage, _res: ServerResponse, next: () => void) => {
      calls.push(name)
      next()
    },
  }[name] as Handle
  return { route: '', handle }
}

function run(stack: ConnectLayer[], url: string): void {
  const req = { url } as IncomingMessage
  for (const entry of stack) (entry.handle as Handle)(req, {} as ServerResponse, () => {})
}

describe('exemptProxiedRoutesFromViteCors', () => {
  // Vite 6 and 8 bundle the cors package's function as `corsMiddleware`, Vite 7 as `corsMiddleware$2`.
  it.each(['corsMiddleware', 'corsMiddleware$2'])('skips %s for proxied requests only', (name) => {
    const calls: string[] = []
    const stack = [
      layer('viteRejectInvalidRequestMiddleware'),
      layer(name, calls),
      layer('viteHostCheckMiddleware'),
    ]
    expect(exemptProxiedRoutesFromViteCors(stack, (req) => req.url?.startsWith('/api') ?? false)).toBe(true)
    run(stack, '/api/users')
    expect(calls).toEqual([])
    run(stack, '/@vite/client')
    expect(calls).toEqual([name])
  })

  it('still finds the middleware after a first plugin instance wrapped it', () => {
    const calls: string[] = []
    const stack = [layer('corsMiddleware', calls)]
    exemptProxiedRoutesFromViteCors(stack, (req) => req.url === '/a')
    expect(exemptProxiedRoutesFromViteCors(stack, (req) => req.url === '/b')).toBe(true)
    run(stack, '/a')
    run(stack, '/b')
    expect(calls).toEqual([])
    run(stack, '/c')
    expect(calls).toEqual(['corsMiddleware'])
  })

  it('reports a stack without it (server.cors: false)', () => {
    expect(exemptProxiedRoutesFromViteCors([layer('viteHostCheckMiddleware')], () => true)).toBe(false)
  })
})

describe('moveAfterViteHostCheck', () => {
  const names = (stack: ConnectLayer[]) => stack.map((entry) => entry.handle.name)

  it.each<[title: string, before: string[], after: string[]]>([
    [
      'Vite 6: the plugin middleware moves behind the host check',
      [
        'own',
        'viteRejectInvalidRequestMiddleware',
        'corsMiddleware',
        'viteHostCheckMiddleware',
        'viteTransformMiddleware',
      ],
      [
        'viteRejectInvalidRequestMiddleware',
        'corsMiddleware',
        'viteHostCheckMiddleware',
        'own',
        'viteTransformMiddleware',
      ],
    ],
    [
      'Vite 7 and 8: already behind it',
      ['corsMiddleware', 'hostValidationMiddleware$1$1', 'own', 'viteTransformMiddleware'],
      ['corsMiddleware', 'hostValidationMiddleware$1$1', 'own', 'viteTransformMiddleware'],
    ],
    ['over HTTPS there is no host check', ['own', 'corsMiddleware'], ['own', 'corsMiddleware']],
  ])('%s', (_title, before, after) => {
    const stack = before.map((name) => layer(name))
    const own = stack[before.indexOf('own')]!.handle
    moveAfterViteHostCheck(stack, own)
    expect(names(stack)).toEqual(after)
  })
})

describe('viteChecksBefore', () => {
  const own = layer('corsDevProxyInApp')
  const reject = layer('viteRejectInvalidRequestMiddleware')
  const exempted = layer('corsMiddlewareOutsideProxiedRoutes')
  const hostCheck = layer('hostValidationMiddleware$1$1')
  // The stacks Vite 6, 7 and 8 build before the plugin's middleware, and what must keep it in the stack.
  it.each<[title: string, stack: ConnectLayer[], expected: ConnectLayer[] | undefined]>([
    ['Vite 7/8 over http: its checks, in order', [reject, exempted, hostCheck, own], [reject, hostCheck]],
    ['over https (no host check)', [reject, exempted, own], [reject]],
    ['Vite 6 over https: first', [own, reject], []],
    ["another plugin's middleware first", [reject, layer('somePluginMiddleware'), own], undefined],
    ["Vite's own CORS middleware, not exempted", [layer('corsMiddleware'), own], undefined],
    ['a middleware mounted on a path', [{ route: '/x', handle: reject.handle }, own], undefined],
    ['DEBUG=vite:time', [layer('viteTimeMiddleware'), reject, own], undefined],
    ['the middleware not in the stack', [reject], undefined],
  ])('%s', (_title, stack, expected) => {
    expect(viteChecksBefore(stack, own.handle)).toEqual(expected?.map((entry) => entry.handle))
  })
})
