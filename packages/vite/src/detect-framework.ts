/** The frameworks that run Vite's dev server as it is, and that the plugin adapts to. */
export type ViteFramework = 'sveltekit' | 'astro' | 'react-router'

/**
 * Which framework runs this Vite, from the names of its plugins in the resolved config:
 * SvelteKit's are `vite-plugin-sveltekit-…`, Astro's `astro:…`, React Router's `react-router`
 * and `react-router:…`. `undefined`: plain Vite (or a framework we do not adapt to).
 *
 * @example
 * frameworkOf([{ name: 'vite-plugin-sveltekit-setup' }]) // 'sveltekit'
 */
export function frameworkOf(plugins: readonly { readonly name?: string }[]): ViteFramework | undefined {
  for (const { name = '' } of plugins) {
    if (name.startsWith('vite-plugin-sveltekit-')) return 'sveltekit'
    if (name.startsWith('astro:')) return 'astro'
    if (name === 'react-router' || name.startsWith('react-router:')) return 'react-router'
  }
  return undefined
}

/**
 * Each framework's own way to make a server-side call that reaches the dev server (and so the
 * proxy), for the hint about a `fetch('/api/…')` that missed it, beside `serverFetch`, which
 * works everywhere: SvelteKit's `event.fetch`, and in Astro and React Router a URL made
 * absolute against the request's (`Astro.url`, a loader's `request.url`). Plain Vite has none.
 *
 * @example
 * serverFetchAlternative('astro')?.('/api/items') // "fetch(new URL('/api/items', Astro.url))"
 */
export function serverFetchAlternative(
  framework: ViteFramework | undefined,
): ((path: string) => string) | undefined {
  switch (framework) {
    case 'sveltekit':
      return (path) => `SvelteKit's event.fetch('${path}')`
    case 'astro':
      return (path) => `fetch(new URL('${path}', Astro.url))`
    case 'react-router':
      return (path) => `fetch(new URL('${path}', request.url)) in a loader`
    default:
      return undefined
  }
}
