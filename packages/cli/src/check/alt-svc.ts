/** What an `Alt-Svc` header (RFC 7838) advertises. */
export interface AltSvc {
  /** The header's value as received. */
  readonly value: string
  /** Whether it advertises HTTP/3 (`h3`, or a draft version `h3-NN`). */
  readonly http3: boolean
  /** One or two sentences for the report. */
  readonly note: string
}

/**
 * Reads an `Alt-Svc` value: `clear`, or alternatives such as `h3=":443"; ma=86400`. HTTP/3
 * advertised means a browser may make later requests to this origin over QUIC (UDP) at the
 * given authority; the CORS rules do not change with the version.
 *
 * @example
 * readAltSvc('h3=":443"; ma=86400').http3 // true
 */
export function readAltSvc(value: string): AltSvc {
  if (value.trim() === 'clear') {
    return { value, http3: false, note: 'clear: the server withdraws the alternatives it advertised before' }
  }
  const alternatives = value
    .split(',')
    .map((item) => /^\s*([^=\s]+)\s*=\s*"([^"]*)"/.exec(item))
    .filter((match) => match !== null)
    .map((match) => ({ protocol: match[1] as string, authority: match[2] as string }))
  const h3 = alternatives.find((alternative) => /^h3(-\d+)?$/.test(alternative.protocol))
  if (h3 === undefined) {
    return {
      value,
      http3: false,
      note: `alternatives advertised: ${alternatives.map((a) => a.protocol).join(', ') || 'none'}`,
    }
  }
  return {
    value,
    http3: true,
    note:
      `HTTP/3 advertised (${h3.protocol} at "${h3.authority}"): a browser may send later requests to this origin over QUIC (UDP), ` +
      'with the same CORS checks; where UDP is blocked it stays on HTTP/2 or HTTP/1.1. This check speaks TCP only.',
  }
}
