import pc from 'picocolors'
import type { CheckExchange, CheckReport } from './run-check.js'

type LocalNetworkAccess = NonNullable<CheckReport['localNetworkAccess']>

const LNA_OUTCOMES: Record<LocalNetworkAccess['outcome'], string> = {
  'not-needed': 'not needed',
  'needs-permission':
    'needs the user\'s permission (Chromium asks; headless Chromium and a "Block" answer block the call)',
  blocked: 'blocked, whatever the user answers',
}

/** The Local Network Access part: the spaces, the outcome, Chromium's line and the fix. */
function localNetworkAccessLines(lna: LocalNetworkAccess): string[] {
  const outcome =
    lna.outcome === 'not-needed' ? pc.green(LNA_OUTCOMES[lna.outcome]) : pc.red(LNA_OUTCOMES[lna.outcome])
  const permission = lna.permission === undefined ? '' : `, permission ${lna.permission}`
  const lines = [
    `${pc.bold('Local Network Access:')} ${lna.pageSpace} page → ${lna.targetSpace} target${permission}: ${outcome}`,
  ]
  if (lna.message !== undefined) lines.push(`  ${lna.message}`)
  if (lna.scriptError !== undefined) lines.push(pc.dim(`  The script sees: ${lna.scriptError}`))
  lines.push(`${pc.bold('Fix:')} ${lna.fix}`)
  return lines
}

function exchangeLines(exchange: CheckExchange, index: number, url: string): string[] {
  const title = exchange.kind === 'preflight' ? 'Preflight' : 'Request'
  const lines = [`${index}. ${pc.bold(title.padEnd(10))}${exchange.method} ${url}`]
  for (const [name, value] of Object.entries(exchange.requestHeaders))
    lines.push(pc.dim(`   > ${name}: ${value}`))
  const status =
    exchange.status >= 200 && exchange.status < 300
      ? pc.green(String(exchange.status))
      : pc.yellow(String(exchange.status))
  lines.push(`   < ${status}`)
  const answered = Object.entries(exchange.responseHeaders)
  if (answered.length === 0) lines.push(pc.dim('   < (no CORS headers)'))
  for (const [name, value] of answered) lines.push(`   < ${name}: ${value}`)
  return lines
}

/**
 * The report `check` prints without `--json`: the request class and why, each exchange with its
 * CORS headers, the protocol and `Alt-Svc`, then the verdict (Chromium's words when blocked) and
 * the fix.
 *
 * @example
 * io.out(formatCheckReport(await runCheckCall(input)))
 */
export function formatCheckReport(report: CheckReport): string {
  const credentials = report.credentials === 'include' ? "credentials: 'include'" : 'no credentials'
  const lines = [
    `${pc.bold('check')} ${report.method} ${report.url}`,
    pc.dim(`  from a page on ${report.origin}, by ${report.initiator}, ${credentials}`),
    '',
  ]
  const { classification } = report
  if (report.sameOrigin) {
    lines.push(`${pc.bold('Request class:')} same-origin: CORS does not apply (no preflight, no CORS check)`)
  } else if (classification.kind === 'simple') {
    lines.push(
      `${pc.bold('Request class:')} simple (no preflight): the method is GET, HEAD or POST and every header is CORS-safelisted`,
    )
  } else {
    lines.push(`${pc.bold('Request class:')} preflighted: an OPTIONS preflight goes first, because`)
    for (const reason of classification.reasons) lines.push(`  - ${reason.message}`)
  }
  if (classification.forbiddenHeaderNames.length > 0) {
    lines.push(
      pc.dim(
        `  The browser drops ${classification.forbiddenHeaderNames.join(', ')}: a script may not set it.`,
      ),
    )
  }
  lines.push('')
  report.exchanges.forEach((exchange, index) => {
    lines.push(...exchangeLines(exchange, index + 1, exchange.url))
  })
  if (report.verdict.stage === 'preflight') {
    lines.push(
      pc.dim(
        `${report.exchanges.length + 1}. Request   not sent: the browser stops after a failed preflight`,
      ),
    )
  }
  if (report.sideEffectNote !== undefined) lines.push(pc.yellow(report.sideEffectNote))
  if (report.exchanges.length > 0) lines.push('')
  lines.push(`${pc.bold('Protocol:')} ${report.protocol.note}`)
  if (report.altSvc !== null)
    lines.push(`${pc.bold('Alt-Svc:')} ${report.altSvc.value}`, `  ${report.altSvc.note}`)
  lines.push('')
  const { verdict } = report
  if (verdict.outcome === 'readable') {
    lines.push(`${pc.bold('Verdict:')} ${pc.green('readable')}: the script can read the response`)
    if (verdict.readableHeaders !== undefined) {
      lines.push(pc.dim(`  and these response headers: ${verdict.readableHeaders.join(', ') || '(none)'}`))
    }
  } else if (verdict.outcome === 'blocked') {
    lines.push(
      `${pc.bold('Verdict:')} ${pc.red('blocked')} (the browser's console says:)`,
      `  ${verdict.message ?? ''}`,
    )
  } else {
    // Some failures Chromium prints nothing for (fetch refusing a Location with user:password).
    const seen = report.initiator === 'fetch' ? '"TypeError: Failed to fetch"' : 'an error event'
    const message = verdict.message ?? pc.dim(`(nothing in the console; the script sees ${seen})`)
    lines.push(`${pc.bold('Verdict:')} ${pc.red(verdict.outcome)}`, `  ${message}`)
  }
  if (verdict.fix !== undefined)
    lines.push(`${pc.bold(verdict.outcome === 'readable' ? 'Note:' : 'Fix:')} ${verdict.fix}`)
  if (report.localNetworkAccess !== undefined)
    lines.push('', ...localNetworkAccessLines(report.localNetworkAccess))
  return `${lines.join('\n')}\n`
}
