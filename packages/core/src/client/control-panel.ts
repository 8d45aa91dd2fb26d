import type { ServedEndpoints } from './served-endpoints.js'

/**
 * The inspector page's live switches (served after the inspector's script, as the body of an
 * immediately invoked function; self-contained): for each route with control options or
 * recordings, a target select (with `targets`), a faults switch (with faults) and a record switch
 * (with `record: true` or `replay: 'fallback'`), read from `GET /__cors-dev-proxy/control` and
 * changed by a same-origin JSON `POST` to it. Shows nothing when no route has any.
 */
export function controlPanel(served: ServedEndpoints): void {
  const url = '/__cors-dev-proxy/control'
  interface RouteView {
    route: string
    targets: { name: string; url: string }[]
    target: string | null
    faultsOn: boolean
    faults: {
      latency: [number, number] | null
      failRate: number
      failWith: number | string
      throttle: number | null
    } | null
    paths: string[]
    record: boolean | null
  }
  const panel = document.querySelector('#control') as HTMLElement | null
  if (panel === null) return
  const container = panel

  function describe(view: RouteView): string {
    const faults = view.faults
    const parts: string[] = []
    if (faults?.latency)
      parts.push(
        faults.latency[0] === faults.latency[1]
          ? `${faults.latency[0]} ms`
          : `${faults.latency[0]}–${faults.latency[1]} ms`,
      )
    if (faults && faults.failRate > 0)
      parts.push(`fails ${Math.round(faults.failRate * 100)}% → ${faults.failWith}`)
    if (faults?.throttle) parts.push(`${faults.throttle} B/s`)
    if (view.paths.length > 0) parts.push(view.paths.join(', '))
    return parts.join(' · ')
  }

  function change(body: Record<string, unknown>): void {
    void fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
      .then((res) => res.json())
      .then(() => load())
  }

  function recordSwitch(view: RouteView, on: boolean): HTMLElement {
    const label = document.createElement('label')
    const box = document.createElement('input')
    box.type = 'checkbox'
    box.checked = on
    box.setAttribute('aria-label', `Record ${view.route}`)
    box.addEventListener('change', () => change({ route: view.route, record: box.checked }))
    label.append(box, ' record')
    return label
  }

  function row(view: RouteView): HTMLElement {
    const item = document.createElement('span')
    item.className = 'control-route'
    item.dataset.route = view.route
    const name = document.createElement('b')
    name.textContent = view.route
    item.append(name)
    if (view.targets.length > 0) {
      const select = document.createElement('select')
      select.setAttribute('aria-label', `Target of ${view.route}`)
      for (const target of view.targets) {
        const option = document.createElement('option')
        option.value = target.name
        option.textContent = `${target.name} (${target.url})`
        option.selected = target.name === view.target
        select.append(option)
      }
      select.addEventListener('change', () => change({ route: view.route, target: select.value }))
      item.append(select)
    }
    const summary = describe(view)
    if (summary !== '') {
      const label = document.createElement('label')
      const box = document.createElement('input')
      box.type = 'checkbox'
      box.checked = view.faultsOn
      box.setAttribute('aria-label', `Faults of ${view.route}`)
      box.addEventListener('change', () => change({ route: view.route, faultsOn: box.checked }))
      label.append(box, ` faults: ${summary}`)
      item.append(label)
    }
    if (view.record !== null) item.append(recordSwitch(view, view.record))
    return item
  }

  function load(): void {
    void fetch(url)
      .then((res) => (res.ok ? (res.json() as Promise<{ routes: RouteView[] }>) : { routes: [] }))
      .then((view) => {
        container.replaceChildren(...view.routes.map(row))
        container.hidden = view.routes.length === 0
      })
  }
  if (served.control) load()
}
