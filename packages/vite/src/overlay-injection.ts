import type { Plugin } from 'vite'

/** Where the dev server serves the overlay's client (the core answers it, see `DevServerProxy.overlayClient`). */
export const OVERLAY_CLIENT_PATH = '/__cors-dev-proxy/client.js'

/** Vite's browser client (`/@vite/client`), which every page of the dev server loads. */
const VITE_CLIENT = /[\\/]vite[\\/]dist[\\/]client[\\/]client\.mjs(\?|$)/

/**
 * The hooks that put the overlay's client in dev pages (never in `vite build` or `vite preview`):
 * a script tag first in `index.html` (`transformIndexHtml`), so it runs before the app's own
 * code, and, for frameworks that render their own HTML (SvelteKit, Astro, React Router), a few
 * lines added to Vite's own client, which every dev page runs. The client installs once.
 * `serving()` says whether this is the dev server.
 *
 * @example
 * const plugin = { name: 'cors-dev-proxy', ...overlayHooks(() => serving) }
 */
export function overlayHooks(
  serving: () => boolean,
): Required<Pick<Plugin, 'transformIndexHtml' | 'transform'>> {
  return {
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (context.server === undefined) return undefined
        return [
          { tag: 'script', attrs: { type: 'module', src: OVERLAY_CLIENT_PATH }, injectTo: 'head-prepend' },
        ]
      },
    },
    transform(code, id, transformOptions) {
      if (!serving() || transformOptions?.ssr === true || !VITE_CLIENT.test(id)) return undefined
      return `${code}\n;{const s=document.createElement('script');s.type='module';s.src=${JSON.stringify(OVERLAY_CLIENT_PATH)};document.head.append(s)}\n`
    },
  }
}
