// Fills the lab page with one run's results: charts, tables and the verdicts in words. No
// network access here: the results come in as data (from the playground's API, or a test).
import {
  escapeText,
  framesTable,
  lossChartSvg,
  PROTOCOL_COLORS,
  PROTOCOL_NAMES,
  shardingSvg,
  waterfallSvg,
} from './lab-charts.js'

/** The name of the protocol Chromium reported (`http/1.1`, `h2`, `h3`) as the charts write it. */
function reported(protocol) {
  return { 'http/1.1': 'HTTP/1.1', h2: 'HTTP/2', h3: 'HTTP/3' }[protocol] ?? (protocol || 'unknown')
}

/**
 * What the loss numbers say about "HTTP/2 is slower than HTTP/1.1 under loss", in words.
 * @param {{ protocol: string, lossPct: number, medianMs: number | null }[]} rows
 */
export function lossVerdict(rows) {
  const at = (protocol, loss) => rows.find((r) => r.protocol === protocol && r.lossPct === loss)?.medianMs
  const lossy = [...new Set(rows.map((r) => r.lossPct))].filter((loss) => loss > 0)
  const slower = lossy.filter((loss) => (at('h2', loss) ?? 0) > (at('h1', loss) ?? Number.POSITIVE_INFINITY))
  const h3Best = lossy.filter(
    (loss) =>
      at('h3', loss) !== undefined &&
      at('h3', loss) <= Math.min(at('h1', loss) ?? Infinity, at('h2', loss) ?? Infinity),
  )
  const parts = []
  if (lossy.length === 0) return 'No loss rate above 0 % was measured.'
  parts.push(
    slower.length === 0
      ? `In this run HTTP/2 was never slower than HTTP/1.1 under loss (medians at ${lossy.join(', ')} %): the claim is not borne out here.`
      : `In this run HTTP/2 was slower than HTTP/1.1 at ${slower.join(', ')} % loss (medians), and not at ${lossy.filter((l) => !slower.includes(l)).join(', ') || 'any other rate'}.`,
  )
  if (rows.some((r) => r.protocol === 'h3'))
    parts.push(`HTTP/3 had the lowest median at ${h3Best.length === 0 ? 'no' : h3Best.join(', ')} % loss.`)
  parts.push('Look at the spread too: with few runs, one retransmission timeout moves a median.')
  return parts.join(' ')
}

/**
 * Renders `results` (what runLab returns) into the page's sections.
 * @param {any} results
 * @param {Document} doc
 */
export function renderLab(results, doc = document) {
  const $ = (id) => doc.getElementById(id)
  $('lab-status').textContent = `Run at ${new Date(results.when).toLocaleString()} (${results.where}).`
  $('chromium-line').hidden = false
  $('chromium-line').innerHTML =
    `The lab's Chromium (run it yourself without <code>--headless</code> to watch): <code>${escapeText(results.chromium.commandLine)}</code>`
  const skipped = results.skipped ?? []
  $('lab-skipped').hidden = skipped.length === 0
  $('lab-skipped').textContent = skipped.map((s) => `Not run: ${s.experiment}: ${s.reason}.`).join(' ')

  $('waterfalls').innerHTML = results.waterfall
    .map(
      (run) =>
        `<figure data-protocol="${run.protocol}"><figcaption><strong style="color:${PROTOCOL_COLORS[run.protocol]}">${PROTOCOL_NAMES[run.protocol]}</strong>: ${run.requests.length} requests in ${Math.round(run.totalMs)} ms, nextHopProtocol <code>${escapeText(run.nextHopProtocol)}</code></figcaption>${waterfallSvg(run)}</figure>`,
    )
    .join('')

  if (results.loss.length > 0) {
    $('loss-chart').innerHTML = lossChartSvg(results.loss, {
      title: `${results.sizes.requests} requests of ${results.sizes.bytes / 1024} KiB, ${results.sizes.runs} run(s) each`,
    })
    $('loss-table').innerHTML =
      `<thead><tr><th>protocol</th><th>loss</th><th>median</th><th>min</th><th>max</th><th>runs</th><th>nextHopProtocol</th></tr></thead><tbody>${results.loss
        .map(
          (r) =>
            `<tr><td>${PROTOCOL_NAMES[r.protocol]}</td><td>${r.lossPct} %</td><td>${r.medianMs ?? '–'} ms</td><td>${r.minMs ?? '–'}</td><td>${r.maxMs ?? '–'}</td><td>${r.runsMs.length}${r.failedRuns ? ` (${r.failedRuns} failed)` : ''}</td><td><code>${escapeText(r.nextHopProtocol)}</code></td></tr>`,
        )
        .join('')}</tbody>`
    $('loss-verdict').textContent = lossVerdict(results.loss)
  } else {
    $('loss-chart').textContent = 'Not run here (see above).'
  }

  const udp = results.udpBlocked
  $('udp-result').innerHTML =
    udp === undefined
      ? 'Not run here (see above).'
      : `<p>Protocol of each request, in order, with UDP dropped: <span class="chips">${udp.sequence
          .map(
            (p) =>
              `<span style="background:${p === 'h3' ? PROTOCOL_COLORS.h3 : PROTOCOL_COLORS.h2}">${escapeText(p)}</span>`,
          )
          .join(
            '',
          )}</span></p><p>Every request answered: <strong>${udp.answered ? 'yes' : 'no'}</strong>; Chromium used <strong id="udp-protocol">${reported(udp.nextHopProtocol)}</strong>.</p><pre>${escapeText(udp.rules)}</pre>`

  $('sharding-chart').innerHTML = results.sharding.length === 0 ? 'Not run.' : shardingSvg(results.sharding)

  if (results.frames) {
    $('hops').innerHTML = Object.entries(results.hops ?? {})
      .map(([hop, protocol]) => `<li>${escapeText(hop)}: <strong>${escapeText(protocol)}</strong></li>`)
      .join('')
    $('frames-table').innerHTML = framesTable(results.frames.frames)
  } else {
    $('frames-table').textContent = 'Not run (see above).'
  }
}

/**
 * Why this browser does not show HTTP/3 itself: QUIC needs a certificate from a public root
 * (or Chromium's flags), which a local server cannot have.
 * @param {string} userAgent
 */
export function browserNote(userAgent) {
  const chromium = /Chrom(e|ium)\//.test(userAgent)
  return chromium
    ? "Your browser is a Chromium: the experiments still run in the lab's own headless Chromium, because HTTP/3 to a local server needs QUIC flags and the key of its self-signed certificate on the command line (below), and loss needs the browser inside the lab's network namespace."
    : "HTTP/3 is not shown in this browser: browsers speak QUIC only to certificates from a public root, and a local server cannot have one; Chromium can be told to accept it with flags (below), other browsers cannot. The results below come from the lab's headless Chromium."
}
