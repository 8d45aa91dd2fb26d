import type { CorsInitiator } from '@cors-dev-proxy/core'

/** What the browser does with a case: the script reads the answer, or Chromium blocks it with this text. */
export type BrowserOutcome =
  | {
      readonly readable: true
      /**
       * The response header names the script can read, lowercase and sorted (fetch
       * `[...res.headers.keys()]`, XMLHttpRequest `getAllResponseHeaders()`); when left out, the
       * echo's own safelisted ones, {@link ECHO_READABLE}.
       */
      readonly readHeaders?: readonly string[]
    }
  | {
      readonly readable: false
      /**
       * Chromium's console text after `... has been blocked by CORS policy: `, word for word; a list
       * when Chromium's choice cannot be promised (which of several refused headers it names), and
       * then Chromium's text and the model's must each be one of them. `{origin}` stands for the
       * page's origin, `{ORIGIN}` for it uppercased.
       */
      readonly text: string | readonly string[]
      /** Which answer failed: the preflight's (the request is then never sent) or the response's. */
      readonly stage: 'preflight' | 'response'
    }
  | {
      readonly readable: false
      /** The script's exception (`String(error)`), thrown before anything is sent; no console CORS text. */
      readonly threw: string
    }

/** The request's credentials mode; XMLHttpRequest has only `same-origin` and `include` (withCredentials). */
export type CaseCredentials = 'omit' | 'same-origin' | 'include'

/** One call of the browser matrix: a page's script calling the mock backend on another origin. */
export interface BrowserCorsCase {
  readonly name: string
  /** The group (file under test/browser/cases/) it comes from. */
  readonly group: string
  /** The path on the mock backend. */
  readonly path: string
  /**
   * The mock's query switches that shape the answer (`cors=reflect&allowMethods=GET,POST`);
   * `{origin}` stands for the page's origin, `{ORIGIN}` for it uppercased.
   */
  readonly switches: string
  readonly initiator: CorsInitiator
  /** As the script writes it. */
  readonly method: string
  /** A record, or `[name, value]` lines when a name is set more than once (`fetch` and `setRequestHeader` combine them). */
  readonly headers?: Readonly<Record<string, string>> | readonly (readonly [string, string])[]
  readonly body?: string
  /** @default 'same-origin' (fetch's default; XMLHttpRequest without withCredentials) */
  readonly credentials?: CaseCredentials
  /** Whether the browser sends a preflight first. */
  readonly preflight: boolean
  readonly expected: BrowserOutcome
  /**
   * The backend's HTTP parser (Node's llhttp) refuses the actual request before the mock sees
   * it, answering `400 Bad Request` with no other header: a method Node does not know, or one in
   * lowercase. The mock's log then has no entry, and the model is fed that answer.
   */
  readonly refusedByParser?: true
  /**
   * Why `cors-dev-proxy check` cannot send this case; test/browser/check-agrees-with-chromium.test.ts
   * skips the cases that have it (and only those), naming the reason in the test's title.
   */
  readonly notSentByCheck?: string
}

/** A call written once for fetch; {@link bothInitiators} makes its XMLHttpRequest twin. */
export type Scenario = Omit<BrowserCorsCase, 'initiator' | 'group'> & {
  /** Why XMLHttpRequest cannot make this call, when it cannot; then only the fetch case exists. */
  readonly fetchOnly?: string
}

/** What the echo's answer carries that a script may always read (its JSON body's type and length). */
export const ECHO_READABLE: readonly string[] = ['content-length', 'content-type']

/** Chromium 156's text when no `Access-Control-Allow-Origin` came back. */
export const NO_ALLOW_ORIGIN = "No 'Access-Control-Allow-Origin' header is present on the requested resource."

/** Chromium's prefix for a preflight answer that fails the access check. */
export const PREFLIGHT_FAILED = "Response to preflight request doesn't pass access control check: "

/** A preflighted call's `Content-Type`. */
export const JSON_TYPE = { 'Content-Type': 'application/json' } as const

/** Chromium's fetch-only ending of the texts about an unusable Access-Control-Allow-Origin value. */
const VALID_VALUE_HINT = ' Have the server send the header with a valid value.'

/** Chromium's XMLHttpRequest-only ending of the two credentials texts. */
const XHR_CREDENTIALS_HINT =
  ' The credentials mode of requests initiated by the XMLHttpRequest is controlled by the withCredentials attribute.'

/**
 * Chromium's XMLHttpRequest wording of a fetch text, by its documented rules (see
 * packages/core/src/browser/chromium-messages.ts), never by asking the model: no valid-value hint,
 * and the withCredentials sentence after the two texts about the credentials mode.
 */
export function xhrText(fetchText: string): string {
  const text = fetchText.replace(VALID_VALUE_HINT, '')
  return text.endsWith("when the request's credentials mode is 'include'.")
    ? `${text}${XHR_CREDENTIALS_HINT}`
    : text
}

/** XMLHttpRequest's exception for a forbidden method: open() throws a SecurityError instead of fetch's TypeError. */
function xhrThrew(fetchThrew: string): string {
  return fetchThrew.replace(
    "TypeError: Failed to execute 'fetch' on 'Window':",
    "SecurityError: Failed to execute 'open' on 'XMLHttpRequest':",
  )
}

function xhrOutcome(outcome: BrowserOutcome): BrowserOutcome {
  if (outcome.readable) return outcome
  if ('threw' in outcome) return { readable: false, threw: xhrThrew(outcome.threw) }
  const text = typeof outcome.text === 'string' ? xhrText(outcome.text) : outcome.text.map(xhrText)
  return { ...outcome, text }
}

/**
 * The fetch case of a scenario and, unless it is `fetchOnly`, its XMLHttpRequest twin with the
 * expectation reworded by Chromium's rules.
 */
export function bothInitiators(group: string, scenarios: readonly Scenario[]): BrowserCorsCase[] {
  return scenarios.flatMap(({ fetchOnly, ...scenario }) => {
    const fetchCase: BrowserCorsCase = { ...scenario, group, initiator: 'fetch' }
    if (fetchOnly !== undefined) return [fetchCase]
    const xhrCase: BrowserCorsCase = {
      ...scenario,
      group,
      name: `XMLHttpRequest: ${scenario.name}`,
      initiator: 'XMLHttpRequest',
      expected: xhrOutcome(scenario.expected),
    }
    return [fetchCase, xhrCase]
  })
}

/** `text` as Chromium prints it when the preflight answer caused it (the access-check texts). */
export function onPreflight(text: string): string {
  return `${PREFLIGHT_FAILED}${text}`
}
