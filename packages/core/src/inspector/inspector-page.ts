import { INSPECTOR_BASE } from './inspector-guard.js'

const STYLE = `
body { margin: 0; font: 13px/1.45 ui-sans-serif, system-ui, sans-serif; color: #1d1d1f; background: #f6f6f7; }
header { display: flex; gap: 12px; align-items: center; padding: 10px 16px; background: #1e1e20; color: #eee; flex-wrap: wrap; }
header h1 { font-size: 15px; margin: 0 12px 0 0; }
header a, header input, header select { font: inherit; }
header a { color: #9cdcfe; }
#live { color: #7ee787; }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(360px, 36%); height: calc(100vh - 48px); }
.list { overflow: auto; border-right: 1px solid #ddd; }
table { border-collapse: collapse; width: 100%; }
#rows td, thead th { padding: 4px 8px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
thead th { position: sticky; top: 0; background: #fafafa; font-weight: 600; }
#rows tr { cursor: pointer; } #rows tr.ours { color: #6e7781; font-style: italic; } #rows tr:hover { background: #eef4ff; } #rows tr.selected { background: #dbe8ff; }
/* The path and upstream columns take what the others leave, cut with an ellipsis: a long URL
   never pushes the CORS column out under the detail pane. */
#rows td.url { max-width: 0; width: 50%; overflow: hidden; text-overflow: ellipsis; font-family: ui-monospace, monospace; }
.s2 { color: #1a7f37; } .s3 { color: #6e7781; } .s4, .s5, .s0 { color: #cf222e; font-weight: 600; }
.cors-blocked, .cors-preflight-blocked { color: #cf222e; font-weight: 600; }
/* A request no recording matched under replay: 'only': a bar at the row's start, and its section. */
#rows tr.unmatched td:first-child { box-shadow: inset 4px 0 #bf8700; }
section.unmatched { background: #fff8e6; border: 1px solid #f0d58c; border-radius: 6px; padding: 4px 10px; margin-top: 8px; }
section.unmatched p { margin: 4px 0; word-break: break-word; } section.unmatched pre { max-height: none; word-break: normal; overflow-wrap: anywhere; }
/* An exchange that breaks its route's OpenAPI document: a bar at the row's start, and its section. */
#rows tr.violations td:first-child { box-shadow: inset 4px 0 #8250df; }
section.openapi.broken { background: #fbefff; border: 1px solid #d8b9ff; border-radius: 6px; padding: 4px 10px; margin-top: 8px; }
section.openapi td { word-break: break-word; }
#detail { overflow: auto; padding: 12px 16px; }
.detail-head { display: flex; justify-content: space-between; gap: 8px; align-items: center; }
.detail-head h2 { font-size: 14px; margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
table.headers th { text-align: left; vertical-align: top; padding: 2px 12px 2px 0; color: #57606a; font-weight: 500; white-space: nowrap; }
table.headers td { font-family: ui-monospace, monospace; word-break: break-all; padding: 2px 0; }
h3 { font-size: 12px; text-transform: uppercase; color: #57606a; margin: 16px 0 4px; }
pre { background: #fff; border: 1px solid #e5e5e5; padding: 8px; white-space: pre-wrap; word-break: break-all; max-height: 240px; overflow: auto; }
.muted { color: #6e7781; }
#explained { padding: 6px 12px; border-bottom: 1px solid #ddd; background: #fff8e6; }
#control { display: flex; gap: 16px; flex-wrap: wrap; width: 100%; }
.control-route { display: inline-flex; gap: 6px; align-items: center; }
#explanations li { margin: 6px 0; } #explanations .call { font-family: ui-monospace, monospace; word-break: break-all; }`

/**
 * The inspector's HTML: a toolbar (filters, HAR download), the list of exchanges and the
 * detail pane; its script is `/__cors-dev-proxy/inspector.js` (no inline script, so the page
 * can forbid them).
 */
export function inspectorPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cors-dev-proxy inspector</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><header><h1>cors-dev-proxy inspector</h1>
<select id="route" aria-label="Route"><option value="">all routes</option></select>
<select id="status" aria-label="Status"><option value="">all statuses</option><option value="failed">failed</option><option>2xx</option><option>3xx</option><option>4xx</option><option>5xx</option></select>
<input id="text" type="search" placeholder="filter text" aria-label="Text filter">
<span id="count"></span><span id="live">○ connecting</span>
<a href="${INSPECTOR_BASE}/har?download" download="cors-dev-proxy.har">Download HAR</a>
<div id="control" hidden></div></header>
<main><div class="list"><details id="explained" hidden><summary></summary><ol id="explanations"></ol></details><table><thead><tr><th>time</th><th>method</th><th>path</th><th>upstream</th><th>status</th><th>protocol</th><th>TTFB / total</th><th>CORS</th></tr></thead><tbody id="rows"></tbody></table></div>
<div id="detail"></div></main>
<script type="module" src="${INSPECTOR_BASE}/inspector.js"></script></body></html>
`
}
