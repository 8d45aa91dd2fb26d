import type { CorsDevProxyOptions, Routes } from '@cors-dev-proxy/core'

/** A nested configuration mistake, and what the error must say about it. */
export interface NestedMistake {
  readonly title: string
  readonly routes: Routes
  readonly options?: CorsDevProxyOptions
  readonly code: string
  /** The exact option path the error names. */
  readonly option: string
  /** A piece of the "Fix it like this" example. */
  readonly fix: string
}

/**
 * Mistakes inside nested options, which both adapters must throw from `corsDevProxy()` itself
 * (where the config is written), not later when the dev server starts.
 */
export const NESTED_MISTAKES: readonly NestedMistake[] = [
  {
    title: 'cors.origin that is not an origin',
    routes: { '/api': { target: 'http://localhost:3000', cors: { origin: 'not-an-origin' } } },
    code: 'INVALID_CORS',
    option: "routes['/api'].cors.origin",
    fix: "{ origin: 'http://localhost:5173' }",
  },
  {
    title: 'an unknown cors key',
    routes: { '/api': { target: 'http://localhost:3000', cors: { credential: true } as never } },
    code: 'UNKNOWN_OPTION',
    option: "routes['/api'].cors.credential",
    fix: '{ cors: { credentials: true } }',
  },
  {
    title: 'mock.cors that is not a mode',
    routes: { '/api': { mock: { cors: 'sometimes' as never } } },
    code: 'INVALID_OPTION',
    option: "routes['/api'].mock.cors",
    fix: "{ mock: { cors: 'reflect' } }",
  },
  {
    title: 'jsonp.param that is not a parameter name',
    routes: { '/api': { target: 'http://localhost:3000', jsonp: { param: 'call back' } } },
    code: 'INVALID_OPTION',
    option: "routes['/api'].jsonp.param",
    fix: "{ jsonp: { param: 'callback' } }",
  },
  {
    title: 'a shared cors with credentials and origin *',
    routes: { '/api': 'http://localhost:3000' },
    options: { cors: { origin: '*', credentials: true } },
    code: 'INVALID_CORS',
    option: 'options.cors.origin',
    fix: "{ cors: { origin: 'http://localhost:5173', credentials: true } }",
  },
]
