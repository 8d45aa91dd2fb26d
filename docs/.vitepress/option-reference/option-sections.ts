import type { InterfaceSource } from './extract-options.ts'

/** A section of the options page: one interface of the core, and how its example is written. */
export interface OptionSection extends InterfaceSource {
  /** Heading of the section. */
  readonly title: string
  /** Prefix of each option's anchor (`''` for route options: `#target`, `#changeorigin`). */
  readonly anchorPrefix: string
  /** What the section is, above its table (markdown). */
  readonly intro: string
  /** The sample call that shows `name: value` in place, as a user writes it. */
  readonly sample: (name: string, value: string) => string
  /**
   * For the top-level sections: which options of the core's option table the section lists
   * (a route's, or the shared options'), with their doc text, default and example from there;
   * the interface then gives only each option's TypeScript type.
   */
  readonly table?: 'route' | 'global'
}

const TARGET = "target: 'http://localhost:3000'"

/** A route object with `name: value`, given the target it needs. */
function routeWith(name: string, value: string): string {
  if (name === 'target') return `{ target: ${value} }`
  // `mock` and `targets` replace `target`: a route picks where its requests go one way.
  if (name === 'mock' || name === 'targets') return `{ ${name}: ${value} }`
  return `{ ${TARGET}, ${name}: ${value} }`
}

/**
 * The interfaces whose keys the core accepts, in the order of the page: the route and shared
 * options come from the core's option table, the nested ones from their interfaces' JSDoc (the
 * compiler holds each nested name list to its interface); test/docs/options-page.test.ts checks
 * that the page and the interfaces name every key the validator accepts.
 */
export const OPTION_SECTIONS: readonly OptionSection[] = [
  {
    title: 'Route options',
    file: 'packages/core/src/config/options.ts',
    name: 'RouteOptions',
    table: 'route',
    anchorPrefix: '',
    intro:
      "The first argument maps a path prefix to a target URL (`'/api': 'http://localhost:3000'`) or to a route object with these keys. See [Routes](/guide/routes) for matching and prefix removal.",
    sample: (name, value) => `corsDevProxy({\n  '/api': ${routeWith(name, value)},\n})`,
  },
  {
    title: 'Shared options',
    file: 'packages/core/src/config/options.ts',
    name: 'CorsDevProxyOptions',
    table: 'global',
    anchorPrefix: 'shared-',
    intro:
      "The second argument (or the rest of one `{ routes, ...options }` object). The route options listed here are defaults for every route: a route's own value wins, and shared `on` hooks run before each route's own.",
    sample: (name, value) =>
      `corsDevProxy(\n  { '/api': 'http://localhost:3000' },\n  { ${name}: ${value} },\n)`,
  },
  {
    title: '`cors` options',
    file: 'packages/core/src/config/cors-options.ts',
    name: 'CorsOptions',
    anchorPrefix: 'cors-',
    intro:
      "The object form of `cors` (on a route or in the shared options): the [`cors`](https://www.npmjs.com/package/cors) package's options, which are also Vite's `server.cors`, with a safer default origin. See [CORS](/guide/cors).",
    sample: (name, value) =>
      `corsDevProxy({\n  '/api': {\n    ${TARGET},\n    cors: { ${name}: ${value} },\n  },\n})`,
  },
  {
    title: '`mock` options',
    file: 'packages/core/src/stand-ins/mock-backend/options/echo-backend-options.ts',
    name: 'MockBackendOptions',
    anchorPrefix: 'mock-',
    intro:
      'The object form of `mock` on a route, also taken by `createMockBackend` and `startMockBackend`. See [Mock backend](/guide/mock-backend).',
    sample: (name, value) => `corsDevProxy({\n  '/api': { mock: { ${name}: ${value} } },\n})`,
  },
  {
    title: '`jsonp` options',
    file: 'packages/core/src/config/option-value-types.ts',
    name: 'JsonpOptions',
    anchorPrefix: 'jsonp-',
    intro: 'The object form of `jsonp` on a route (or in the shared options). See [JSONP](/guide/jsonp).',
    sample: (name, value) => `corsDevProxy({\n  '/api': { ${TARGET}, jsonp: { ${name}: ${value} } },\n})`,
  },
  {
    title: '`inspector` options',
    file: 'packages/core/src/config/inspector-options.ts',
    name: 'InspectorOptions',
    anchorPrefix: 'inspector-',
    intro:
      'The object form of the shared `inspector` option: what the exchange inspector at `/__cors-dev-proxy/` keeps. See [Overlay and inspector](/guide/overlay-and-inspector).',
    sample: (name, value) =>
      `corsDevProxy(\n  { '/api': 'http://localhost:3000' },\n  { inspector: { ${name}: ${value} } },\n)`,
  },
  {
    title: '`openapi` options',
    file: 'packages/core/src/contract/options/openapi-options.ts',
    name: 'OpenApiOptions',
    anchorPrefix: 'openapi-',
    intro:
      "The object form of a route's `openapi`: the team's OpenAPI document and what the proxy does with it besides checking each exchange against it.",
    sample: (name, value) =>
      name === 'document'
        ? `corsDevProxy({\n  '/api': { ${TARGET}, openapi: { document: ${value} } },\n})`
        : `corsDevProxy({\n  '/api': {\n    ${TARGET},\n    openapi: { document: './openapi.yaml', ${name}: ${value} },\n  },\n})`,
  },
  {
    title: '`recordings` options',
    file: 'packages/core/src/stand-ins/recordings/options/recordings-options.ts',
    name: 'RecordingsOptions',
    anchorPrefix: 'recordings-',
    intro:
      'The shared `recordings` option: where routes with `record` or `replay` keep their files, and the bounds. See [Record and replay](/guide/record-replay).',
    sample: (name, value) =>
      `corsDevProxy(\n  { '/api': { target: 'http://localhost:3000', record: true } },\n  { recordings: { ${name}: ${value} } },\n)`,
  },
]
