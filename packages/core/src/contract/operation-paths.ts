/** A compiled path template: matches a path below a base path and reads its parameters. */
export interface PathTemplate {
  /** Reads `pathname` (the backend's path, base path included): the path parameters, or undefined. */
  match(pathname: string): Readonly<Record<string, string>> | undefined
  /** One digit per segment, `0` literal and `1` templated: sorting these puts literal segments first. */
  readonly rank: string
}

/**
 * The base paths the document's `servers` give (OpenAPI 3.0.3 section 4.7.5): an absolute URL's
 * path, a relative one's (`/v1`, resolved against the root as a document served from it would),
 * variables at their defaults; longest first, without a trailing `/`. No `servers`: `['']`, the
 * root, as the specification defaults to `url: /`.
 *
 * @example
 * serverBasePaths([{ url: 'https://api.example.com/v1/' }, { url: '/' }]) // ['/v1', '']
 */
export function serverBasePaths(servers: unknown): string[] {
  if (!Array.isArray(servers) || servers.length === 0) return ['']
  const paths = servers.map(
    (server: { url?: unknown; variables?: Record<string, { default?: unknown }> }) => {
      const url = String(server?.url ?? '/').replace(/\{([^}]+)\}/g, (_, name: string) =>
        String(server?.variables?.[name]?.default ?? ''),
      )
      let pathname: string
      try {
        pathname = new URL(url, 'http://document.invalid/').pathname
      } catch {
        pathname = '/'
      }
      return decodeURI(pathname).replace(/\/+$/, '')
    },
  )
  return [...new Set(paths)].sort((a, b) => b.length - a.length)
}

/**
 * Compiles a path template (`/pets/{id}`, `/files/{name}.json`): a `{name}` matches within one
 * segment, everything else literally; a trailing `/` on either side is ignored.
 *
 * @example
 * compilePathTemplate('/pets/{id}', ['/v1']).match('/v1/pets/7') // { id: '7' }
 */
export function compilePathTemplate(template: string, basePaths: readonly string[]): PathTemplate {
  const names: string[] = []
  const segments = trimSlash(template).split('/').slice(1)
  const source = segments
    .map((segment) =>
      segment
        .split(/(\{[^}]+\})/)
        .map((part) => {
          if (!/^\{[^}]+\}$/.test(part)) return escapeRegExp(part)
          names.push(part.slice(1, -1))
          return '([^/]+)'
        })
        .join(''),
    )
    .map((segment) => `/${segment}`)
    .join('')
  const regex = new RegExp(`^${source}$`)
  const rank = segments.map((segment) => (segment.includes('{') ? '1' : '0')).join('')
  return {
    rank,
    match(pathname) {
      for (const base of basePaths) {
        const rest = below(trimSlash(pathname), base)
        const found = rest === undefined ? null : regex.exec(rest)
        if (found)
          return Object.fromEntries(names.map((name, index) => [name, decodeSegment(found[index + 1] ?? '')]))
      }
      return undefined
    },
  }
}

/** The part of `pathname` under `base` (`''` for the root), or undefined when it is not under it. */
function below(pathname: string, base: string): string | undefined {
  if (base === '') return pathname
  if (pathname === base) return ''
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path === '/' ? '' : path
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
