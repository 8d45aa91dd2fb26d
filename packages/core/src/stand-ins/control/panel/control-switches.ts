/** Where the switches are read and changed. */
const CONTROL_URL = '/__cors-dev-proxy/control'

/** One route's switches, as `GET /__cors-dev-proxy/control` lists them. */
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

/** The route's faults (latency, failures, throttle) and recorded paths, in one line. */
function describeFaults(view: RouteView): string {
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

/** Sends one change of a route's switches, then shows the routes again. */
function changeControl(container: HTMLElement, body: Record<string, unknown>): void {
  void fetch(CONTROL_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
    .then((res) => res.json())
    .then(() => loadControls(container))
}

/** The route's record switch. */
function recordSwitch(container: HTMLElement, view: RouteView, on: boolean): HTMLElement {
  const label = document.createElement('label')
  const box = document.createElement('input')
  box.type = 'checkbox'
  box.checked = on
  box.setAttribute('aria-label', `Record ${view.route}`)
  box.addEventListener('change', () => changeControl(container, { route: view.route, record: box.checked }))
  label.append(box, ' record')
  return label
}

/** One route's switches: its target select, its faults switch, its record switch. */
function controlRow(container: HTMLElement, view: RouteView): HTMLElement {
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
    select.addEventListener('change', () =>
      changeControl(container, { route: view.route, target: select.value }),
    )
    item.append(select)
  }
  const summary = describeFaults(view)
  if (summary !== '') {
    const label = document.createElement('label')
    const box = document.createElement('input')
    box.type = 'checkbox'
    box.checked = view.faultsOn
    box.setAttribute('aria-label', `Faults of ${view.route}`)
    box.addEventListener('change', () =>
      changeControl(container, { route: view.route, faultsOn: box.checked }),
    )
    label.append(box, ` faults: ${summary}`)
    item.append(label)
  }
  if (view.record !== null) item.append(recordSwitch(container, view, view.record))
  return item
}

/**
 * Reads the routes' switches (`GET /__cors-dev-proxy/control`) and shows them; the panel is hidden
 * when no route has any.
 *
 * @example
 * loadControls(document.querySelector('#control') as HTMLElement)
 */
export function loadControls(container: HTMLElement): void {
  void fetch(CONTROL_URL)
    .then((res) => (res.ok ? (res.json() as Promise<{ routes: RouteView[] }>) : { routes: [] }))
    .then((view) => {
      container.replaceChildren(...view.routes.map((route) => controlRow(container, route)))
      container.hidden = view.routes.length === 0
    })
}
