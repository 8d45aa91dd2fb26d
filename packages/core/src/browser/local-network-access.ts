import {
  type AddressSpace,
  addressSpaceOfAddress,
  addressSpaceOfHost,
  resolveAddressSpace,
} from './address-space.js'
import { type CorsInitiator, initiatorWord } from './chromium-messages.js'

/** Input of {@link predictLocalNetworkAccess}: the page, the target, and how the script calls it. */
export interface LocalNetworkAccessInput {
  /** The page's origin, e.g. `https://app.example.com`. */
  readonly origin: string
  /** The page's address space, when its host is a name this process cannot place. */
  readonly pageSpace?: AddressSpace
  /** The address the page was loaded from (its space is derived), when `pageSpace` is not given. */
  readonly pageAddress?: string
  /** The URL the script calls. */
  readonly url: string
  /** The target's address space, when its host is a name: what checkCors gets from the connection. */
  readonly targetSpace?: AddressSpace
  /** The address the target resolves to, when `targetSpace` is not given. */
  readonly targetAddress?: string
  /**
   * fetch's `targetAddressSpace` option, as the script passes it: `loopback`, `local`, `public`,
   * or what Chromium 156 also takes, `private` (read as `local`) and `unknown` (no declaration).
   * Ignored for XMLHttpRequest, which has no such option.
   */
  readonly targetAddressSpace?: string
  /** @default 'fetch' */
  readonly initiator?: CorsInitiator
  /**
   * The page's URL, which Chromium quotes in its mixed-content message.
   * @default the origin followed by `/`
   */
  readonly pageUrl?: string
}

/** The permission a `public` page needs for a `loopback` or a `local` target. */
export type LocalNetworkPermission = 'local-network' | 'loopback-network'

/** What Chromium 156 does about Local Network Access for one call, and what to do about it. */
export interface LocalNetworkAccessPrediction {
  /** `true` when the call goes from a `public` page to a `local` or `loopback` target. */
  readonly applies: boolean
  readonly pageSpace: AddressSpace
  readonly targetSpace: AddressSpace
  /** The permission the page's origin needs: `loopback-network` for a loopback target, else `local-network`. */
  readonly permission?: LocalNetworkPermission
  /**
   * `not-needed`: Local Network Access lets the call through (CORS still applies).
   * `needs-permission`: the call waits for the user's answer to a prompt; a denial (and headless
   * Chromium, which never asks) blocks it with `message`. `blocked`: blocked whatever the user says.
   */
  readonly outcome: 'not-needed' | 'needs-permission' | 'blocked'
  /** Chromium's console line when the call is blocked (for `needs-permission`: when permission is denied). */
  readonly message?: string
  /** What the script gets when the call is blocked (`String(error)` for fetch). */
  readonly scriptError?: string
  /** One line: what makes the call work. */
  readonly fix: string
}

/**
 * What an XMLHttpRequest script sees: `error` with `status` 0 (a synchronous `send()` throws
 * `NetworkError: Failed to execute 'send' on 'XMLHttpRequest': Failed to load '<url>'.`).
 */
const XHR_SCRIPT_ERROR = 'an error event, status 0'
/** What an EventSource's script sees of a refused request: `error`, and the source closed. */
const EVENT_SOURCE_SCRIPT_ERROR = 'an error event, readyState CLOSED'

/** `http:` on a loopback host is a potentially trustworthy origin, as is every `https:` one. */
function isSecureContextOrigin(origin: URL): boolean {
  return (
    origin.protocol === 'https:' ||
    (origin.protocol === 'http:' && addressSpaceOfHost(origin.hostname) === 'loopback')
  )
}

function placeOrThrow(
  host: string,
  space: AddressSpace | undefined,
  address: string | undefined,
  what: 'page' | 'target',
): AddressSpace {
  const placed = space ?? (address === undefined ? addressSpaceOfHost(host) : addressSpaceOfAddress(address))
  if (placed !== undefined) return placed
  const option = what === 'page' ? 'pageSpace' : 'targetSpace'
  throw new TypeError(
    `predictLocalNetworkAccess: cannot place the ${what} host '${host}' in an address space. Pass ${option} ('loopback', 'local' or 'public') or ${what}Address (the IP address it resolves to), e.g. { ${option}: 'public' }.`,
  )
}

/**
 * Predicts Chromium's Local Network Access verdict (on by default since Chromium 142; checked
 * here against Chromium 156): a `public` page calling a `local` or `loopback` address needs a
 * secure context and the user's permission, before and on top of CORS. A `local` or `loopback`
 * page is never checked. A `targetAddressSpace` that is not the target's real space blocks the
 * call on any page. An `https:` page calling a `http:` host name is mixed content, blocked
 * unless fetch passes `targetAddressSpace` (a private IP literal is let through without it).
 * Throws a TypeError when a host name cannot be placed: pass `pageSpace` / `targetSpace`.
 *
 * @example
 * predictLocalNetworkAccess({ origin: 'https://app.example.com', pageSpace: 'public', url: 'http://localhost:3000/users' })
 * // { applies: true, outcome: 'needs-permission', permission: 'loopback-network', ... }
 */
export function predictLocalNetworkAccess(input: LocalNetworkAccessInput): LocalNetworkAccessPrediction {
  const initiator = input.initiator ?? 'fetch'
  const page = new URL(input.origin)
  const target = new URL(input.url)
  const pageSpace = placeOrThrow(page.hostname, input.pageSpace, input.pageAddress, 'page')
  const targetSpace = placeOrThrow(target.hostname, input.targetSpace, input.targetAddress, 'target')
  const applies = pageSpace === 'public' && targetSpace !== 'public'
  const permission: LocalNetworkPermission | undefined = applies
    ? targetSpace === 'loopback'
      ? 'loopback-network'
      : 'local-network'
    : undefined
  const proxyFix = `route the call through the dev server's proxy (corsDevProxy({ '/api': '${target.origin}' })) so the page calls its own origin`
  const base = { applies, pageSpace, targetSpace, ...(permission === undefined ? {} : { permission }) }
  const chromiumLine = (text: string) =>
    `Access to ${initiatorWord(initiator)} at '${target.href}' from origin '${page.origin}' has been blocked by CORS policy: ${text}`
  const scriptError =
    initiator === 'fetch'
      ? 'TypeError: Failed to fetch'
      : initiator === 'EventSource'
        ? EVENT_SOURCE_SCRIPT_ERROR
        : XHR_SCRIPT_ERROR
  const option = initiator === 'fetch' ? input.targetAddressSpace : undefined
  if (option !== undefined && !TARGET_ADDRESS_SPACE_VALUES.has(option)) {
    // WebIDL rejects the value before anything is sent; there is no console line.
    return {
      ...base,
      outcome: 'blocked',
      scriptError: `TypeError: Failed to execute 'fetch' on 'Window': Failed to read the 'targetAddressSpace' property from 'RequestInit': The provided value '${option}' is not a valid enum value of type IPAddressSpace.`,
      fix: `pass targetAddressSpace: '${targetSpace}' (one of 'loopback', 'local', 'public'), or leave it out.`,
    }
  }
  // Chromium 156 still takes the old name 'private' for 'local', and 'unknown' as no declaration.
  const declared = option === 'private' ? 'local' : option === 'unknown' ? undefined : option
  // Checked on every page, local and loopback ones included, before anything else.
  if (declared !== undefined && declared !== targetSpace) {
    const text = `Request had a target IP address space of \`${declared}\` yet the resource is in address space \`${targetSpace}\`.`
    const fix = `pass targetAddressSpace: '${targetSpace}', or leave it out.`
    return { ...base, outcome: 'blocked', message: chromiumLine(text), scriptError, fix }
  }
  if (!applies) return { ...base, outcome: 'not-needed', fix: 'nothing to do for Local Network Access.' }
  if (!isSecureContextOrigin(page)) {
    const text = `The request client is not a secure context and the resource is in more-private address space \`${targetSpace}\`.`
    const fix = `${proxyFix}; or serve the page over HTTPS and grant it the ${permission} permission.`
    return { ...base, outcome: 'blocked', message: chromiumLine(text), scriptError, fix }
  }
  // An https: page calling an http: host name is mixed content, blocked unless fetch declares
  // the target's space; an IP literal in a private block is let through without it.
  if (
    page.protocol === 'https:' &&
    target.protocol === 'http:' &&
    addressSpaceOfHost(target.hostname) === undefined &&
    declared === undefined
  ) {
    const pageUrl = input.pageUrl ?? `${page.origin}/`
    return {
      ...base,
      outcome: 'blocked',
      message: `Mixed Content: The page at '${pageUrl}' was loaded over HTTPS, but requested an insecure resource '${target.href}'. This request has been blocked; the content must be served over HTTPS.`,
      scriptError,
      fix: `${proxyFix}; or pass fetch's targetAddressSpace: '${targetSpace}' and grant the ${permission} permission.`,
    }
  }
  const text = `Permission was denied for this request to access the \`${targetSpace}\` address space.`
  const fix = `${proxyFix}; or grant the page's origin the ${permission} permission (in playwright: context.grantPermissions(['local-network-access'])).`
  return { ...base, outcome: 'needs-permission', message: chromiumLine(text), scriptError, fix }
}

/** The call {@link localNetworkAccessOfCall} places: `checkCors`'s request, in short. */
export interface LocalNetworkAccessCall {
  readonly origin: string
  readonly url: string
  /** The page's address space when its host is a name this machine cannot place (or places elsewhere). */
  readonly pageSpace?: AddressSpace | undefined
  /** fetch's `targetAddressSpace` option, if the script passes one. */
  readonly targetAddressSpace?: string | undefined
}

/**
 * Places the page and the target (a name with `dns.lookup`, as the browser on this machine would)
 * and predicts Local Network Access for a fetch call; `undefined` when it does not come into play
 * (nothing applies and nothing blocks) or a host cannot be placed. What `checkCors` reports.
 *
 * @example
 * await localNetworkAccessOfCall({ origin: 'https://app.example.com', pageSpace: 'public', url: 'http://localhost:3000/' })
 * // { applies: true, outcome: 'needs-permission', permission: 'loopback-network', ... }
 */
export async function localNetworkAccessOfCall(
  call: LocalNetworkAccessCall,
): Promise<LocalNetworkAccessPrediction | undefined> {
  // An opaque origin (`null`) has no host to place.
  if (!URL.canParse(call.origin) || !URL.canParse(call.url)) return undefined
  const [pageSpace, targetSpace] = await Promise.all([
    call.pageSpace ?? resolveAddressSpace(new URL(call.origin).hostname),
    resolveAddressSpace(new URL(call.url).hostname),
  ])
  if (pageSpace === undefined || targetSpace === undefined) return undefined
  const prediction = predictLocalNetworkAccess({ ...call, pageSpace, targetSpace })
  return prediction.applies || prediction.outcome !== 'not-needed' ? prediction : undefined
}

/** The values of fetch's `targetAddressSpace` that Chromium 156's WebIDL enum accepts. */
const TARGET_ADDRESS_SPACE_VALUES: ReadonlySet<string> = new Set([
  'loopback',
  'local',
  'private',
  'public',
  'unknown',
])
