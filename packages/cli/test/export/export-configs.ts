import type { CorsDevProxyConfig } from '@cors-dev-proxy/core'
import { expect } from 'vitest'

/**
 * Configurations both exports must turn into something nginx and Caddy accept, covering every
 * option the exports read. Targets are local names: nginx resolves upstream names when it loads.
 */
export const EXPORT_CONFIGS: Record<string, CorsDevProxyConfig> = {
  'one route': { routes: { '/api': 'http://127.0.0.1:3000' } },
  'every forwarding option': {
    routes: {
      '/api': {
        target: 'http://localhost:3000/v1',
        changeOrigin: false,
        xfwd: false,
        headers: { 'x-token': 'a$b{c}"d\\', 'x-other': 'plain' },
        timeout: 1500.5,
        ws: true,
        rewriteWsOrigin: true,
        cookieDomainRewrite: 'example.test',
        cookiePathRewrite: { '/': '/api/', '*': '' },
      },
      '/fixed-host': {
        target: 'http://localhost:3000',
        headers: { host: 'fixed.example' },
        rewriteLocation: false,
      },
    },
  },
  'https targets': {
    routes: {
      '/insecure': { target: 'https://localhost:8443', secure: false },
      '/verified': 'https://localhost:8443/base',
      // The longest timeout the core accepts.
      '/ip': { target: 'https://127.0.0.1:8443', secure: false, timeout: 2_147_483_647 },
    },
  },
  'CORS policies': {
    routes: {
      '/default': { target: 'http://127.0.0.1:3000', cors: true, ws: true },
      '/any': { target: 'http://127.0.0.1:3000', cors: { origin: '*' } },
      '/reflect': {
        target: 'http://127.0.0.1:3000',
        cors: { origin: true, credentials: true, preflightContinue: true },
        ws: true,
      },
      '/listed': {
        target: 'http://127.0.0.1:3000',
        cors: {
          origin: ['http://a.test', /\.b\.test$/i, 'null'],
          allowedHeaders: [],
          methods: 'GET',
          maxAge: 0,
          optionsSuccessStatus: 200,
          exposedHeaders: 'x-a,x-b',
        },
      },
      '/lookahead': { target: 'http://127.0.0.1:3000', cors: { origin: /^https:\/\/(?!evil)/ } },
    },
  },
  'what cannot be exported': {
    routes: {
      '/router': { target: 'http://127.0.0.1:3000', router: () => 'http://127.0.0.1:3001' },
      '/filter': { target: 'http://127.0.0.1:3000', pathFilter: '/filter/x' },
      '/hooks': { target: 'http://127.0.0.1:3000', on: { proxyReq: () => undefined }, jsonp: true },
      '/function': { target: 'http://127.0.0.1:3000', pathRewrite: (path) => path.toUpperCase() },
      '/map': { target: 'http://127.0.0.1:3000', pathRewrite: { '^/map/old': '/new' } },
      '/origin-function': {
        target: 'http://127.0.0.1:3000',
        cors: { origin: (_origin, cb) => cb(null, true) },
      },
      '/cookies': {
        target: 'http://127.0.0.1:3000',
        cookieDomainRewrite: { 'old.example': 'new.example', '*': '' },
      },
      '/mock': { mock: true },
    },
  },
  'backend control and recordings': {
    routes: {
      '/api': {
        targets: { local: 'http://127.0.0.1:3000', staging: 'http://127.0.0.1:4000' },
        latency: [100, 400],
        failRate: 0.2,
        failWith: 'reset',
        throttle: 16384,
        faults: { 'GET /users/:id': { failRate: 1, failWith: 500 } },
      },
      '/recorded': { target: 'http://127.0.0.1:3000', record: true, replay: 'fallback' },
      '/offline': { target: 'http://127.0.0.1:3000', replay: 'only' },
    },
  },
  'odd prefixes, shared options': {
    routes: {
      '/a$b': 'http://[::1]:3000',
      "/it's": 'http://127.0.0.1:3000/x$y',
      '/': 'http://localhost:3000',
    },
    cors: { credentials: true },
    headers: { 'x-shared': '1' },
    timeout: 5000,
  },
}

/**
 * The config comment's notes on the dev-time options of `EXPORT_CONFIGS['backend control and
 * recordings']`: the same for every export.
 */
export const DEV_ONLY_NOTES: readonly string[] = [
  "routes['/api'].targets: exported with the target in use, 'local' (http://127.0.0.1:3000/) of local, staging",
  "routes['/api'].latency: not exported (a dev-time fault)",
  "routes['/api'].failRate: not exported (a dev-time fault), no request is answered with a reset on purpose.",
  "routes['/api'].throttle: not exported (a dev-time fault)",
  "routes['/api'].faults ('GET /users/:id'): not exported",
  "routes['/recorded'].record: not exported, nothing is recorded.",
  "routes['/recorded'].replay: not exported, a target that is down is answered 502",
  "routes['/offline'].replay: not exported, every request is forwarded to the target",
]

/** Asserts that an export's output names each of `notes` in a "Needs attention" line. */
export function expectNeedsAttention(output: string, notes: readonly string[]): void {
  for (const note of notes) expect(output).toContain(`# Needs attention: ${note}`)
}
