// The lab's charts, drawn as SVG markup from the lab's results: pure functions of data, used by
// the lab page and, in Node, by the script that renders the docs' chart from a benchmark run.

/** One colour per protocol, the same on every chart. */
export const PROTOCOL_COLORS = { h1: '#0969da', h2: '#8250df', h3: '#1a7f37' }
/** How the charts name each protocol. */
export const PROTOCOL_NAMES = { h1: 'HTTP/1.1', h2: 'HTTP/2', h3: 'HTTP/3' }

/** Text for SVG and HTML, escaped. */
export function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A round, readable step for an axis running up to `max`. */
function niceStep(max, ticks = 5) {
  const raw = max / ticks
  const power = 10 ** Math.floor(Math.log10(raw || 1))
  const unit = [1, 2, 5, 10].find((m) => m * power >= raw) ?? 10
  return unit * power
}

/**
 * A waterfall: one row per request, a bar from its start to its end (ms since the burst began),
 * coloured by the protocol Chromium reported for it.
 * @param {{ protocol: string, totalMs: number, requests: { start: number, end: number, protocol: string }[] }} run
 */
export function waterfallSvg(run, { width = 560, rowHeight = 3 } = {}) {
  const requests = run.requests ?? []
  const left = 44
  const top = 8
  const plotWidth = width - left - 10
  const height = top + requests.length * rowHeight + 28
  const max = Math.max(run.totalMs ?? 0, ...requests.map((r) => r.end), 1)
  const step = niceStep(max)
  const x = (ms) => left + (ms / max) * plotWidth
  const color = PROTOCOL_COLORS[run.protocol] ?? '#57606a'
  const bars = requests
    .map(
      (r, i) =>
        `<rect x="${x(Math.max(0, r.start)).toFixed(1)}" y="${top + i * rowHeight}" width="${Math.max(1, x(r.end) - x(Math.max(0, r.start))).toFixed(1)}" height="${Math.max(1, rowHeight - 1)}" fill="${r.connected ? '#d4a72c' : color}"><title>${escapeText(`#${i + 1} ${r.protocol || '?'} ${r.start.toFixed(0)}–${r.end.toFixed(0)} ms${r.connected ? ', new connection' : ''}`)}</title></rect>`,
    )
    .join('')
  const axisY = top + requests.length * rowHeight + 4
  const ticks = []
  for (let ms = 0; ms <= max; ms += step) {
    ticks.push(
      `<line x1="${x(ms)}" x2="${x(ms)}" y1="${top}" y2="${axisY}" stroke="#d0d7de" stroke-width="0.5"/><text x="${x(ms)}" y="${axisY + 14}" font-size="10" text-anchor="middle">${ms}</text>`,
    )
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" class="waterfall" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeText(`${PROTOCOL_NAMES[run.protocol] ?? run.protocol}: ${requests.length} requests in ${Math.round(run.totalMs)} ms`)}">${ticks.join('')}${bars}<text x="4" y="${axisY + 14}" font-size="10">ms</text><text x="4" y="${top + 10}" font-size="10">req</text></svg>`
}

/**
 * The loss chart: total time of a burst per loss rate, one line per protocol through the
 * medians, each run a dot, the spread (min–max) a vertical bar.
 * @param {{ protocol: string, lossPct: number, runsMs: number[], medianMs: number | null }[]} rows
 */
export function lossChartSvg(rows, { width = 640, height = 360, title = '' } = {}) {
  const left = 60
  const right = 130
  const top = title ? 36 : 16
  const bottom = 44
  const rates = [...new Set(rows.map((r) => r.lossPct))].sort((a, b) => a - b)
  const all = rows.flatMap((r) => r.runsMs)
  const max = Math.max(...all, 1)
  const step = niceStep(max)
  const yMax = Math.ceil(max / step) * step
  const plotW = width - left - right
  const plotH = height - top - bottom
  const x = (rate) =>
    left + (rates.length === 1 ? plotW / 2 : (rates.indexOf(rate) / (rates.length - 1)) * plotW)
  const y = (ms) => top + plotH - (ms / yMax) * plotH
  const parts = []
  if (title)
    parts.push(
      `<text x="${width / 2}" y="20" font-size="14" text-anchor="middle" font-weight="600">${escapeText(title)}</text>`,
    )
  for (let ms = 0; ms <= yMax; ms += step) {
    parts.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${y(ms)}" y2="${y(ms)}" stroke="#d0d7de" stroke-width="0.5"/><text x="${left - 6}" y="${y(ms) + 4}" font-size="11" text-anchor="end">${ms}</text>`,
    )
  }
  for (const rate of rates) {
    parts.push(
      `<text x="${x(rate)}" y="${top + plotH + 18}" font-size="11" text-anchor="middle">${rate} %</text>`,
    )
  }
  parts.push(
    `<text x="${left + plotW / 2}" y="${height - 6}" font-size="11" text-anchor="middle">packets dropped in each direction</text>`,
    `<text x="14" y="${top + plotH / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 14 ${top + plotH / 2})">total time (ms)</text>`,
  )
  const protocols = [...new Set(rows.map((r) => r.protocol))]
  protocols.forEach((protocol, index) => {
    const color = PROTOCOL_COLORS[protocol] ?? '#57606a'
    // Side by side at each rate, so the three protocols' dots and bars do not hide each other.
    const shift = (index - (protocols.length - 1) / 2) * 8
    const mine = rows
      .filter((r) => r.protocol === protocol && r.medianMs !== null)
      .sort((a, b) => a.lossPct - b.lossPct)
    const path = mine
      .map((r, i) => `${i === 0 ? 'M' : 'L'}${(x(r.lossPct) + shift).toFixed(1)},${y(r.medianMs).toFixed(1)}`)
      .join(' ')
    parts.push(
      `<path d="${path}" fill="none" stroke="${color}" stroke-width="2" class="median-line" data-protocol="${protocol}"/>`,
    )
    for (const r of mine) {
      const cx = x(r.lossPct) + shift
      parts.push(
        `<line x1="${cx}" x2="${cx}" y1="${y(Math.min(...r.runsMs))}" y2="${y(Math.max(...r.runsMs))}" stroke="${color}" stroke-width="1.5" opacity="0.6"/>`,
        ...r.runsMs.map(
          (ms) => `<circle cx="${cx}" cy="${y(ms).toFixed(1)}" r="2" fill="${color}" opacity="0.5"/>`,
        ),
        `<rect x="${cx - 4}" y="${y(r.medianMs) - 4}" width="8" height="8" fill="${color}" class="median" data-protocol="${protocol}" data-loss="${r.lossPct}"><title>${escapeText(`${PROTOCOL_NAMES[protocol] ?? protocol}, ${r.lossPct} % loss: median ${r.medianMs} ms of ${r.runsMs.length} runs`)}</title></rect>`,
      )
    }
    parts.push(
      `<rect x="${left + plotW + 16}" y="${top + 8 + index * 20}" width="12" height="12" fill="${color}"/><text x="${left + plotW + 34}" y="${top + 18 + index * 20}" font-size="12">${PROTOCOL_NAMES[protocol] ?? protocol}</text>`,
    )
  })
  parts.push(
    `<text x="${left + plotW + 16}" y="${top + 24 + protocols.length * 20}" font-size="10" fill="#57606a">square: median</text>`,
    `<text x="${left + plotW + 16}" y="${top + 38 + protocols.length * 20}" font-size="10" fill="#57606a">dots: runs</text>`,
    `<text x="${left + plotW + 16}" y="${top + 52 + protocols.length * 20}" font-size="10" fill="#57606a">bars: min–max</text>`,
  )
  return `<svg xmlns="http://www.w3.org/2000/svg" class="loss-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="total time per protocol per loss rate" font-family="system-ui, sans-serif"><rect width="${width}" height="${height}" fill="#fff"/>${parts.join('')}</svg>`
}

/**
 * The sharding chart: one bar per protocol and host count, its time, labelled with the
 * connections (TLS handshakes) it took.
 * @param {{ protocol: string, hosts: number, medianMs: number, connections: number }[]} rows
 */
export function shardingSvg(rows, { width = 560 } = {}) {
  const rowHeight = 26
  const left = 150
  const height = rows.length * rowHeight + 12
  const max = Math.max(...rows.map((r) => r.medianMs), 1)
  const bars = rows
    .map((r, i) => {
      const w = ((width - left - 150) * r.medianMs) / max
      const y = 6 + i * rowHeight
      return `<text x="4" y="${y + 15}" font-size="12">${PROTOCOL_NAMES[r.protocol] ?? r.protocol}, ${r.hosts} host${r.hosts === 1 ? '' : 's'}</text><rect x="${left}" y="${y}" width="${Math.max(1, w).toFixed(1)}" height="${rowHeight - 8}" fill="${PROTOCOL_COLORS[r.protocol] ?? '#57606a'}" opacity="${r.hosts === 1 ? 1 : 0.6}" class="shard" data-protocol="${r.protocol}" data-hosts="${r.hosts}"/><text x="${left + w + 6}" y="${y + 14}" font-size="12">${Math.round(r.medianMs)} ms, ${r.connections} connection${r.connections === 1 ? '' : 's'}</text>`
    })
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" class="sharding" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="domain sharding">${bars}</svg>`
}

/**
 * The frames of one exchange as an HTML table: direction, the 9-byte header (length, type,
 * flags, stream id, as bytes and decoded), and what the frame carries.
 * @param {{ direction: string, type: string, length: number, flags: number, flagNames: string[], streamId: number, bytes: string[], headers: [string, string][], details: string[] }[]} frames
 */
export function framesTable(frames) {
  const rows = frames
    .map((f) => {
      const bytes = `<code class="bytes"><span title="length">${f.bytes.slice(0, 3).join(' ')}</span> <span title="type">${f.bytes[3]}</span> <span title="flags">${f.bytes[4]}</span> <span title="reserved bit and stream id">${f.bytes.slice(5).join(' ')}</span></code>`
      const carried =
        f.headers.length > 0
          ? `<ul class="headers">${f.headers.map(([n, v]) => `<li><code>${escapeText(n)}: ${escapeText(v)}</code></li>`).join('')}</ul>`
          : escapeText(f.details.join(' '))
      return `<tr class="frame" data-type="${escapeText(f.type)}"><td>${escapeText(f.direction)}</td><td>${bytes}</td><td><strong>${escapeText(f.type)}</strong></td><td>${f.length}</td><td>0x${f.flags.toString(16).padStart(2, '0')}${f.flagNames.length ? ` (${escapeText(f.flagNames.join(', '))})` : ''}</td><td>${f.streamId}</td><td>${carried}</td></tr>`
    })
    .join('')
  return `<table class="frames"><thead><tr><th>direction</th><th>9-byte header</th><th>type</th><th>length</th><th>flags</th><th>stream</th><th>payload, decoded</th></tr></thead><tbody>${rows}</tbody></table>`
}
