import { describe, expect, it } from 'vitest'
import {
  type LocalNetworkAccessInput,
  type LocalNetworkAccessPrediction,
  predictLocalNetworkAccess,
} from '../../src/browser/local-network-access.js'

// Every row was observed in headless Chromium 156 (test/browser/local-network-access.test.ts and
// the experiments behind it), with --ip-address-space-overrides placing the servers.
const HTTPS_PAGE = 'https://app.example.com'
const HTTP_PAGE = 'http://app.example.com'
const LOOPBACK = 'http://127.0.0.1:3000/users'
const LOCAL = 'http://192.168.1.20:8080/status'
const blockedBy = (origin: string, url: string, text: string, initiator = 'fetch') =>
  `Access to ${initiator} at '${url}' from origin '${origin}' has been blocked by CORS policy: ${text}`

type Row = [name: string, input: LocalNetworkAccessInput, expected: Partial<LocalNetworkAccessPrediction>]

const rows: Row[] = [
  [
    'public https page → loopback: needs loopback-network',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOOPBACK },
    {
      applies: true,
      pageSpace: 'public',
      targetSpace: 'loopback',
      permission: 'loopback-network',
      outcome: 'needs-permission',
      message: blockedBy(
        HTTPS_PAGE,
        LOOPBACK,
        'Permission was denied for this request to access the `loopback` address space.',
      ),
      scriptError: 'TypeError: Failed to fetch',
    },
  ],
  [
    'public https page → local: needs local-network',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOCAL },
    {
      applies: true,
      targetSpace: 'local',
      permission: 'local-network',
      outcome: 'needs-permission',
      message: blockedBy(
        HTTPS_PAGE,
        LOCAL,
        'Permission was denied for this request to access the `local` address space.',
      ),
    },
  ],
  [
    'public http page → loopback: not a secure context',
    { origin: HTTP_PAGE, pageSpace: 'public', url: LOOPBACK },
    {
      applies: true,
      permission: 'loopback-network',
      outcome: 'blocked',
      message: blockedBy(
        HTTP_PAGE,
        LOOPBACK,
        'The request client is not a secure context and the resource is in more-private address space `loopback`.',
      ),
      scriptError: 'TypeError: Failed to fetch',
    },
  ],
  [
    'XMLHttpRequest: the same text, named for XMLHttpRequest',
    { origin: HTTP_PAGE, pageSpace: 'public', url: LOCAL, initiator: 'XMLHttpRequest' },
    {
      outcome: 'blocked',
      message: blockedBy(
        HTTP_PAGE,
        LOCAL,
        'The request client is not a secure context and the resource is in more-private address space `local`.',
        'XMLHttpRequest',
      ),
      scriptError: 'an error event, status 0',
    },
  ],
  [
    'http on a loopback host is a secure context (an overridden public page on 127.0.0.1)',
    { origin: 'http://127.0.0.1:5173', pageSpace: 'public', url: LOOPBACK },
    { applies: true, outcome: 'needs-permission' },
  ],
  [
    'a page whose space comes from its address',
    { origin: HTTPS_PAGE, pageAddress: '93.184.215.14', url: LOOPBACK },
    { pageSpace: 'public', outcome: 'needs-permission' },
  ],
  [
    'a target named by its resolved address',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: 'https://printer.lan/', targetAddress: '10.0.0.9' },
    { targetSpace: 'local', permission: 'local-network', outcome: 'needs-permission' },
  ],
  [
    'local page → loopback: not checked (Chromium folds local and loopback together)',
    { origin: 'http://192.168.1.5:5173', url: LOOPBACK },
    {
      applies: false,
      pageSpace: 'local',
      targetSpace: 'loopback',
      outcome: 'not-needed',
      message: undefined,
    },
  ],
  [
    'loopback page → local: not checked',
    { origin: 'http://localhost:5173', url: LOCAL },
    { applies: false, pageSpace: 'loopback', outcome: 'not-needed' },
  ],
  [
    'public page → public target: not checked',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: 'https://api.example.com/', targetSpace: 'public' },
    { applies: false, outcome: 'not-needed', permission: undefined },
  ],
  [
    'targetAddressSpace matching: still needs the permission',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOOPBACK, targetAddressSpace: 'loopback' },
    { outcome: 'needs-permission', permission: 'loopback-network' },
  ],
  [
    'targetAddressSpace mismatching: blocked, before the secure-context check',
    { origin: HTTP_PAGE, pageSpace: 'public', url: LOOPBACK, targetAddressSpace: 'local' },
    {
      outcome: 'blocked',
      message: blockedBy(
        HTTP_PAGE,
        LOOPBACK,
        'Request had a target IP address space of `local` yet the resource is in address space `loopback`.',
      ),
    },
  ],
  [
    'targetAddressSpace mismatching blocks a loopback page too',
    { origin: 'http://localhost:5173', url: LOOPBACK, targetAddressSpace: 'public' },
    {
      applies: false,
      outcome: 'blocked',
      message: blockedBy(
        'http://localhost:5173',
        LOOPBACK,
        'Request had a target IP address space of `public` yet the resource is in address space `loopback`.',
      ),
    },
  ],
  [
    'targetAddressSpace that is not a space: fetch throws, nothing in the console',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOOPBACK, targetAddressSpace: 'bogus' },
    {
      outcome: 'blocked',
      message: undefined,
      scriptError:
        "TypeError: Failed to execute 'fetch' on 'Window': Failed to read the 'targetAddressSpace' property from 'RequestInit': The provided value 'bogus' is not a valid enum value of type IPAddressSpace.",
    },
  ],
  [
    "targetAddressSpace 'private' is read as 'local'",
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOOPBACK, targetAddressSpace: 'private' },
    {
      outcome: 'blocked',
      message: blockedBy(
        HTTPS_PAGE,
        LOOPBACK,
        'Request had a target IP address space of `local` yet the resource is in address space `loopback`.',
      ),
    },
  ],
  [
    "targetAddressSpace 'private' on a local target: as 'local'",
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOCAL, targetAddressSpace: 'private' },
    { outcome: 'needs-permission', permission: 'local-network' },
  ],
  [
    "targetAddressSpace 'unknown': as if not given",
    { origin: HTTPS_PAGE, pageSpace: 'public', url: LOOPBACK, targetAddressSpace: 'unknown' },
    { outcome: 'needs-permission', permission: 'loopback-network' },
  ],
  [
    'XMLHttpRequest has no targetAddressSpace: the option is ignored',
    {
      origin: HTTPS_PAGE,
      pageSpace: 'public',
      url: LOOPBACK,
      targetAddressSpace: 'local',
      initiator: 'XMLHttpRequest',
    },
    { outcome: 'needs-permission' },
  ],
  [
    'https page → http host name in a private space: mixed content, blocked',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: 'http://nas.lan:8080/x', targetSpace: 'local' },
    {
      outcome: 'blocked',
      message:
        "Mixed Content: The page at 'https://app.example.com/' was loaded over HTTPS, but requested an insecure resource 'http://nas.lan:8080/x'. This request has been blocked; the content must be served over HTTPS.",
      scriptError: 'TypeError: Failed to fetch',
    },
  ],
  [
    'the same with targetAddressSpace: let through, needs the permission',
    {
      origin: HTTPS_PAGE,
      pageSpace: 'public',
      url: 'http://nas.lan:8080/x',
      targetSpace: 'local',
      targetAddressSpace: 'local',
    },
    { outcome: 'needs-permission', permission: 'local-network' },
  ],
  [
    'https page → http private IP literal: let through without targetAddressSpace',
    { origin: HTTPS_PAGE, pageSpace: 'public', url: 'http://[fd00::2]:8080/x' },
    { targetSpace: 'local', outcome: 'needs-permission' },
  ],
]

const inputOf = (name: string): LocalNetworkAccessInput => {
  const row = rows.find(([rowName]) => rowName.startsWith(name))
  if (row === undefined) throw new Error(`no row ${name}`)
  return row[1]
}

describe('predictLocalNetworkAccess', () => {
  it.each(rows)('%s', (_name, input, expected) => {
    const prediction = predictLocalNetworkAccess(input)
    for (const [key, value] of Object.entries(expected)) {
      expect(prediction[key as keyof LocalNetworkAccessPrediction], key).toEqual(value)
    }
  })

  it('always names the dev proxy with the target origin in a blocked or permission fix', () => {
    for (const [, input] of rows) {
      const prediction = predictLocalNetworkAccess(input)
      if (prediction.outcome === 'not-needed' || input.targetAddressSpace !== undefined) continue
      expect(prediction.fix).toContain(`corsDevProxy({ '/api': '${new URL(input.url).origin}' })`)
    }
  })

  it('offers the permission and HTTPS ways out too', () => {
    expect(predictLocalNetworkAccess(inputOf('public https page → loopback')).fix).toContain(
      "grant the page's origin the loopback-network permission",
    )
    expect(predictLocalNetworkAccess(inputOf('public http page → loopback')).fix).toContain(
      'serve the page over HTTPS',
    )
    expect(predictLocalNetworkAccess(inputOf('https page → http host name')).fix).toContain(
      "targetAddressSpace: 'local'",
    )
  })

  it('names the missing input when a host name cannot be placed', () => {
    expect(() => predictLocalNetworkAccess({ origin: HTTPS_PAGE, url: LOOPBACK })).toThrow(
      "cannot place the page host 'app.example.com' in an address space. Pass pageSpace ('loopback', 'local' or 'public') or pageAddress",
    )
    expect(() =>
      predictLocalNetworkAccess({ origin: HTTPS_PAGE, pageSpace: 'public', url: 'http://api.test/' }),
    ).toThrow("e.g. { targetSpace: 'public' }")
  })
})
