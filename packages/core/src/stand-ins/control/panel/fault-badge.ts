import type { ServedEndpoints } from '../../../client/served-endpoints.js'

/**
 * The overlay's reminder (served after the overlay client, as the body of an immediately invoked
 * function; self-contained): a small persistent badge in the page's corner while any route's
 * latency or faults are on, read from `GET /__cors-dev-proxy/control` every 2 s. Stops asking
 * when the dev server has no such routes: it lists none (an older one answered 404).
 */
export function faultBadge(served: ServedEndpoints): void {
  if (!served.control) return
  const url = '/__cors-dev-proxy/control'
  let badge: HTMLElement | undefined
  function show(on: boolean): void {
    if (!on) {
      badge?.remove()
      badge = undefined
      return
    }
    if (badge !== undefined) return
    badge = document.createElement('a')
    badge.id = 'cors-dev-proxy-fault-badge'
    badge.textContent = 'faults on'
    badge.title = 'cors-dev-proxy delays or fails some requests: switch it in the inspector'
    badge.setAttribute('href', '/__cors-dev-proxy/')
    badge.setAttribute('target', '_blank')
    badge.setAttribute(
      'style',
      'position:fixed;left:8px;bottom:8px;z-index:2147483647;padding:2px 8px;border-radius:10px;background:#b35900;color:#fff;font:600 12px/18px system-ui,sans-serif;text-decoration:none;opacity:.9',
    )
    document.body.append(badge)
  }
  function poll(): void {
    fetch(url)
      .then((res) => {
        if (res.status === 404) return undefined
        return res.ok
          ? (res.json() as Promise<{ faultsOn: boolean; routes?: unknown[] }>)
          : { faultsOn: false, routes: undefined }
      })
      .then((view) => {
        // No route has switches: none can get any until the dev server restarts (and the page reloads).
        if (view === undefined || view.routes?.length === 0) return
        show(view.faultsOn)
        setTimeout(poll, 2000)
      })
      .catch(() => setTimeout(poll, 5000))
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', poll)
  else poll()
}
