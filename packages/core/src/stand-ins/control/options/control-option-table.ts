/*
 * The control's options in the option table (config/option-table.ts): faults (`latency`,
 * `failRate`, `failWith`, `throttle`, `faults`) and named `targets`, with their routes-line notes.
 */
import type { RichOptionEntry } from '../../../config/option-entry.js'
import type { ResolvedRouteParts } from '../../../config/resolved-route-parts.js'

/**
 * `faults` when the route fails, slows or throttles some requests (its own switches or `faults`).
 *
 * @example
 * describeFaults(route) // 'faults'
 */
export function describeFaults(route: ResolvedRouteParts): string | undefined {
  const control = route.control
  return control?.faults !== undefined || (control?.rules.length ?? 0) > 0 ? 'faults' : undefined
}

/**
 * The route's first target and the names it may switch between.
 *
 * @example
 * describeTargets(route) // "target 'local' of local, staging"
 */
export function describeTargets(route: ResolvedRouteParts): string | undefined {
  const control = route.control
  if (control === undefined || control.targets.length === 0) return undefined
  return `target '${control.initial}' of ${control.targets.map((target) => target.name).join(', ')}`
}

/** The options of the control: faults and several targets. */
export const CONTROL_OPTIONS: readonly RichOptionEntry[] = [
  {
    name: 'latency',
    level: 'route',
    doc: [
      'Milliseconds added before each request of the route is forwarded (a slow backend), or',
      '`[min, max]` for a delay drawn per request. Switched live from the inspector.',
    ],
    defaultText: '0',
    example: '[100, 400]',
    fixValue: '300',
    resolvedBy: 'resolve-control.ts',
  },
  {
    name: 'failRate',
    level: 'route',
    doc: [
      "The share of the route's requests (0 to 1) answered with `failWith` instead of being",
      "forwarded (a flaky backend). The answer goes through the route's CORS policy and carries",
      '`X-Cors-Dev-Proxy-Fault`.',
    ],
    defaultText: '0',
    example: '0.2',
    fixValue: '0.2',
    resolvedBy: 'resolve-control.ts',
  },
  {
    name: 'failWith',
    level: 'route',
    doc: [
      "What a request failed by `failRate` gets: a status (400 to 599), or `'reset'` to drop the",
      "client's connection.",
    ],
    defaultText: '503',
    example: '500',
    fixValue: '503',
    resolvedBy: 'resolve-control.ts',
  },
  {
    name: 'throttle',
    level: 'route',
    doc: [
      "Bytes per second: the route's answers are streamed to the client no faster, with",
      'back-pressure (the target is read no faster either, nothing is buffered whole).',
    ],
    defaultText: 'no limit',
    example: '16384',
    fixValue: '16384',
    resolvedBy: 'resolve-control.ts',
  },
  {
    name: 'faults',
    level: 'route',
    doc: [
      "Faults for some paths only: `'METHOD /path'` or `'/path'` keys relative to the route's",
      'prefix (`:name` matches one segment, `*` the rest), each with `latency`, `failRate`,',
      "`failWith` and `throttle`. The first key that matches wins over the route's own values.",
    ],
    defaultText: 'none',
    example: "{ 'GET /users/:id': { failRate: 0.5, failWith: 500 } }",
    fixValue: "{ 'GET /users/:id': { failRate: 0.5 } }",
    resolvedBy: 'resolve-control.ts',
    startup: describeFaults,
  },
  {
    name: 'targets',
    level: 'route',
    doc: [
      'Named targets instead of `target`, the first one used by default; the inspector switches',
      'between them without a restart, and `cors-dev-proxy.local.json` (`{ "targets": { "/api":',
      '"staging" } }`) or `CORS_DEV_PROXY_TARGETS=/api=staging` picks another for one developer.',
    ],
    defaultText: 'none',
    example: "{ local: 'http://localhost:3000', staging: 'https://staging.example.com' }",
    fixValue: "{ local: 'http://localhost:3000', staging: 'https://staging.example.com' }",
    resolvedBy: 'resolve-control.ts',
    startup: describeTargets,
  },
]
