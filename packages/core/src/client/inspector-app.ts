import type { ServedEndpoints } from './served-endpoints.js'

/**
 * The inspector page's script (served as `/__cors-dev-proxy/inspector.js`, as the body of an
 * immediately invoked function; self-contained). Lists the recorded exchanges, adds new ones
 * as the server streams them, filters by route, status and text, shows one in detail, replays
 * it or writes its answer as a mock file (on routes with `mocks`), links the HAR export, and lists the overlay's explanations of failed calls.
 */
export function inspectorApp(served: ServedEndpoints): void {
  const base = '/__cors-dev-proxy'
  interface View {
    id: number
    startedAt: string
    method: string
    url: string
    route: string
    upstreamUrl?: string
    clientProtocol: string
    upstreamProtocol?: string
    status: number
    ttfb?: number
    total?: number
    requestHeaders: [string, string][]
    responseHeaders: [string, string][]
    requestBytes: number
    responseBytes: number
    hooks: string[]
    cors: { outcome: string; rule: string; message?: string; fix?: string }
    requestBody?: string
    responseBody?: string
    bodiesTruncated: boolean
    aborted: boolean
    replayOf?: number
    replayedFrom?: string
    mockedFrom?: string
    /** `probe`: sent by the dev server itself (the overlay's explanation), not by the page. */
    ours?: string
  }
  const exchanges: View[] = []
  // The routes with `mocks` ("Mock this answer" is offered on their exchanges), and what it said per exchange.
  const mockRoutes = new Set<string>()
  const mocked = new Map<number, string>()
  // What a replay answered, per exchange: the detail is rebuilt when the replay itself arrives.
  const replays = new Map<number, string>()
  let selected: number | undefined
  const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T
  const rows = $<HTMLTableSectionElement>('#rows')
  const detail = $<HTMLElement>('#detail')
  const routeFilter = $<HTMLSelectElement>('#route')
  const statusFilter = $<HTMLSelectElement>('#status')
  const textFilter = $<HTMLInputElement>('#text')

  const el = (tag: string, text?: string, className?: string): HTMLElement => {
    const element = document.createElement(tag)
    if (text !== undefined) element.textContent = text
    if (className !== undefined) element.className = className
    return element
  }
  const ms = (value: number | undefined) => (value === undefined ? '–' : `${value} ms`)

  function matches(view: View): boolean {
    if (routeFilter.value !== '' && view.route !== routeFilter.value) return false
    const status = statusFilter.value
    // Our own probe's verdict is the explanation of a failed call, not another failure of the page.
    if (
      status === 'failed' &&
      (view.ours !== undefined || (view.status < 400 && view.cors.outcome !== 'blocked' && !view.aborted))
    )
      return false
    if (/^\dxx$/.test(status) && String(view.status)[0] !== status[0]) return false
    const text = textFilter.value.trim().toLowerCase()
    if (text !== '') {
      const haystack =
        `${view.method} ${view.url} ${view.upstreamUrl ?? ''} ${view.status} ${view.cors.outcome}`.toLowerCase()
      if (!haystack.includes(text)) return false
    }
    return true
  }

  function row(view: View): HTMLTableRowElement {
    const tr = document.createElement('tr')
    tr.dataset.id = String(view.id)
    tr.className = `${view.id === selected ? 'selected' : ''}${view.ours !== undefined ? ' ours' : ''}`.trim()
    const status = el(
      'td',
      `${view.status}${view.aborted ? ' (aborted)' : ''}${view.replayedFrom !== undefined ? ' (replayed)' : ''}${view.mockedFrom !== undefined ? ' (mocked)' : ''}${view.ours === 'probe' ? ' (our probe)' : ''}`,
      `s${String(view.status)[0]}`,
    )
    // The URL columns are cut to fit the list: the whole URL is in the cell's tooltip.
    const path = el('td', view.url, 'url')
    path.title = view.url
    const upstream = el(
      'td',
      view.upstreamUrl ?? (view.upstreamProtocol === 'mock' ? 'mock backend' : '–'),
      'url',
    )
    upstream.title = upstream.textContent ?? ''
    tr.append(
      el('td', new Date(view.startedAt).toLocaleTimeString([], { hour12: false })),
      el('td', view.method),
      path,
      upstream,
      status,
      el('td', `${view.clientProtocol} → ${view.upstreamProtocol ?? '–'}`),
      el('td', `${ms(view.ttfb)} / ${ms(view.total)}`),
      el('td', view.cors.outcome, `cors-${view.cors.outcome}`),
    )
    tr.addEventListener('click', () => {
      selected = view.id
      render()
    })
    return tr
  }

  function headerTable(title: string, headers: [string, string][]): HTMLElement {
    const section = el('section')
    section.append(el('h3', title))
    const table = el('table', undefined, 'headers')
    for (const [name, value] of headers) {
      const tr = el('tr')
      tr.append(el('th', name), el('td', value))
      table.append(tr)
    }
    section.append(table)
    return section
  }

  function showDetail(view: View | undefined): void {
    detail.replaceChildren()
    if (view === undefined) {
      detail.append(el('p', 'Select an exchange.', 'muted'))
      return
    }
    const head = el('div', undefined, 'detail-head')
    head.append(el('h2', `${view.method} ${view.url} → ${view.status}`))
    const replay = el('button', replays.get(view.id) ?? 'Replay') as HTMLButtonElement
    // A body that was not kept cannot be sent again (the server would refuse): said here, not asked.
    const hasBody = view.requestBytes > 0 || view.method === 'POST' || view.method === 'PUT'
    if (hasBody && view.requestBytes > 0 && (view.requestBody === undefined || view.bodiesTruncated)) {
      replay.disabled = true
      replay.title = 'Its request body was not kept: open the inspector before the call to replay it'
    }
    replay.addEventListener('click', () => {
      replay.disabled = true
      fetch(`${base}/replay/${view.id}`, { method: 'POST' })
        .then((answer) => answer.json())
        .then((answer: { status?: number; error?: string }) => {
          replays.set(view.id, answer.error ?? `Replayed: ${answer.status}`)
          render()
        })
        .catch(() => undefined)
        .finally(() => {
          replay.disabled = false
        })
    })
    head.append(replay)
    if (mockRoutes.has(view.route) && view.mockedFrom === undefined && view.status > 0) {
      head.append(mockButton(view))
    }
    detail.append(head)
    const facts: [string, string][] = [
      ['route', view.route],
      ['upstream URL', view.upstreamUrl ?? '–'],
      [
        'protocol',
        `browser → dev server: ${view.clientProtocol}; dev server → upstream: ${view.upstreamProtocol ?? '–'}`,
      ],
      ['time to first byte', ms(view.ttfb)],
      ['total', ms(view.total)],
      ['bytes', `${view.requestBytes} up, ${view.responseBytes} down`],
      ['CORS', `${view.cors.outcome}: ${view.cors.rule}`],
      ['hooks', view.hooks.length === 0 ? 'none' : view.hooks.join(', ')],
    ]
    if (view.cors.message !== undefined) facts.push(['console', view.cors.message])
    if (view.cors.fix !== undefined) facts.push(['fix', view.cors.fix])
    if (view.ours === 'probe')
      facts.push([
        'sent by',
        "cors-dev-proxy: the overlay's explanation probe of a failed call, not the page",
      ])
    if (view.replayOf !== undefined) facts.push(['replay of', `#${view.replayOf}`])
    if (view.replayedFrom !== undefined) facts.push(['replayed from', view.replayedFrom])
    if (view.mockedFrom !== undefined) facts.push(['mocked by', view.mockedFrom])
    detail.append(headerTable('Exchange', facts))
    detail.append(headerTable('Request headers', view.requestHeaders))
    detail.append(headerTable('Response headers', view.responseHeaders))
    for (const [title, body] of [
      ['Request body', view.requestBody],
      ['Response body', view.responseBody],
    ] as const) {
      const section = el('section')
      section.append(el('h3', title))
      section.append(el('pre', body ?? 'not kept (bodies are copied only while an inspector is open)'))
      detail.append(section)
    }
  }

  /** Writes the exchange's answer as a mock file of its route (`POST /mock`): the next call to its path gets it. */
  function mockButton(view: View): HTMLButtonElement {
    const button = el('button', mocked.get(view.id) ?? 'Mock this answer') as HTMLButtonElement
    button.title = 'Write this answer as a mock file: the next request to this path is answered from it'
    button.addEventListener('click', () => {
      button.disabled = true
      fetch(`${base}/mock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: view.id }),
      })
        .then((answer) => answer.json())
        .then((answer: { file?: string; error?: string }) => {
          mocked.set(view.id, answer.error ?? `Mocked: ${answer.file ?? ''}`)
          render()
        })
        .finally(() => {
          button.disabled = false
        })
    })
    return button
  }

  function render(): void {
    const routes = [...new Set(exchanges.map((view) => view.route))].sort()
    const current = routeFilter.value
    if (routeFilter.options.length !== routes.length + 1) {
      routeFilter.replaceChildren(el('option', 'all routes'))
      ;(routeFilter.options[0] as HTMLOptionElement).value = ''
      for (const route of routes) routeFilter.append(el('option', route))
      routeFilter.value = current
    }
    const shown = exchanges.filter(matches).reverse()
    rows.replaceChildren(...shown.map(row))
    $<HTMLElement>('#count').textContent = `${shown.length} of ${exchanges.length} exchanges`
    showDetail(exchanges.find((view) => view.id === selected))
  }

  // The overlay's explanations of failed calls, newest first: the verdict, and what was probed for it.
  interface Explained {
    method: string
    url: string
    explanation: { message?: string; cause: string; probe?: { text: string } }
  }
  const explained: Explained[] = []
  function showExplained(): void {
    $<HTMLElement>('#explained').hidden = explained.length === 0
    $<HTMLElement>('#explained summary').textContent =
      `Failed calls the overlay explained (${explained.length})`
    const items = explained.map(({ method, url, explanation }) => {
      const item = el('li')
      item.append(
        el('div', `${method} ${url}`, 'call'),
        el('div', explanation.message ?? explanation.cause),
        el('div', explanation.probe?.text ?? '', 'muted probe'),
      )
      return item
    })
    $<HTMLElement>('#explanations').replaceChildren(...items)
  }

  for (const input of [routeFilter, statusFilter, textFilter]) input.addEventListener('input', render)
  if (served.explain)
    void fetch(`${base}/explanations`)
      .then((answer) => answer.json())
      .then((list: Explained[]) => {
        explained.push(...list)
        showExplained()
      })
  if (served.mocks)
    void fetch(`${base}/mock`)
      .then((answer) =>
        answer.ok ? (answer.json() as Promise<{ routes: { route: string }[] }>) : { routes: [] },
      )
      .then((list) => {
        for (const { route } of list.routes) mockRoutes.add(route)
        render()
      })

  void fetch(`${base}/exchanges`)
    .then((answer) => answer.json())
    .then((list: View[]) => {
      exchanges.push(...list)
      render()
      const events = new EventSource(`${base}/events`)
      events.addEventListener('exchange', (event) => {
        exchanges.push(JSON.parse((event as MessageEvent<string>).data) as View)
        if (exchanges.length > 2000) exchanges.shift()
        render()
      })
      events.addEventListener('explanation', (event) => {
        explained.unshift(JSON.parse((event as MessageEvent<string>).data) as Explained)
        if (explained.length > 100) explained.pop()
        showExplained()
      })
      events.addEventListener('open', () => {
        $<HTMLElement>('#live').textContent = '● live'
      })
      events.addEventListener('error', () => {
        $<HTMLElement>('#live').textContent = '○ reconnecting'
      })
    })
}
