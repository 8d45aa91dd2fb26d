import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * The IP address spaces of Local Network Access, most private first. Chromium compares
 * them after folding `loopback` and `local` together: only a `public` page is checked.
 */
export type AddressSpace = 'loopback' | 'local' | 'public'

/**
 * Chromium's IP address space table (`NonPublicAddressSpaceMap`), first match wins; every
 * other address is `public`. It is not RFC 6890's "special-purpose" list: 192.0.2.0/24 and
 * the other documentation and benchmark IPv4 blocks are `public` here, while IPv6's
 * documentation blocks are `local`.
 */
const TABLE: ReadonlyArray<
  readonly [address: string, prefix: number, family: 'ipv4' | 'ipv6', AddressSpace]
> = [
  ['::1', 128, 'ipv6', 'loopback'],
  ['fc00::', 7, 'ipv6', 'local'], // unique local
  ['fe80::', 10, 'ipv6', 'local'], // link-local unicast
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['10.0.0.0', 8, 'ipv4', 'local'],
  ['172.16.0.0', 12, 'ipv4', 'local'],
  ['192.168.0.0', 16, 'ipv4', 'local'],
  ['169.254.0.0', 16, 'ipv4', 'local'], // link-local
  // "This host": 0.0.0.0 reaches this machine on most systems, hence loopback; the rest of 0/8 local.
  ['0.0.0.0', 32, 'ipv4', 'loopback'],
  ['0.0.0.0', 8, 'ipv4', 'local'],
  ['::', 128, 'ipv6', 'loopback'], // the unspecified address, treated like 0.0.0.0
  ['100.64.0.0', 10, 'ipv4', 'local'], // carrier-grade NAT
  ['2001:db8::', 32, 'ipv6', 'local'], // documentation
  ['3fff::', 20, 'ipv6', 'local'], // documentation
  ['fec0::', 10, 'ipv6', 'local'], // site-local (deprecated, still used)
]

/** One BlockList per space, built once; `BlockList` matches `::ffff:`-mapped IPv4 against IPv4 rules itself. */
const LISTS: ReadonlyArray<readonly [BlockList, AddressSpace]> = TABLE.map(
  ([address, prefix, family, space]) => {
    const list = new BlockList()
    list.addSubnet(address, prefix, family)
    return [list, space] as const
  },
)

/** An IPv4-mapped IPv6 address in dotted form (`::ffff:10.0.0.1`), whose IPv4 part decides. */
const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/**
 * The Local Network Access address space of an IP address, by Chromium's IP address space
 * table: `127.0.0.0/8`, `::1`, `0.0.0.0` and `::` are `loopback`; the RFC 1918 blocks,
 * `169.254.0.0/16`, `100.64.0.0/10`, the rest of `0.0.0.0/8`, `fc00::/7`, `fe80::/10`,
 * `fec0::/10` and IPv6's documentation blocks are `local`; everything else is `public`.
 * An IPv4-mapped IPv6 address (`::ffff:192.168.1.1`) counts as its IPv4 address. Brackets
 * (`[::1]`, as in a URL) are accepted. Returns `undefined` for a string that is not an address.
 *
 * @example
 * addressSpaceOfAddress('127.0.0.1')   // 'loopback'
 * addressSpaceOfAddress('192.168.1.20') // 'local'
 * addressSpaceOfAddress('[fd00::2]')    // 'local'
 * addressSpaceOfAddress('8.8.8.8')      // 'public'
 */
export function addressSpaceOfAddress(address: string): AddressSpace | undefined {
  let bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  bare = MAPPED_DOTTED.exec(bare)?.[1] ?? bare
  const family = isIP(bare)
  if (family === 0) return undefined
  const type = family === 4 ? 'ipv4' : 'ipv6'
  for (const [list, space] of LISTS) if (list.check(bare, type)) return space
  return 'public'
}

/**
 * The address space of a URL host without asking DNS: an IP literal by the table, and
 * `localhost` and `*.localhost`, which Chromium resolves to loopback itself. `undefined`
 * for any other name.
 *
 * @example
 * addressSpaceOfHost('app.localhost') // 'loopback'
 * addressSpaceOfHost('example.com')   // undefined: needs resolveAddressSpace
 */
export function addressSpaceOfHost(host: string): AddressSpace | undefined {
  const name = host.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback'
  return addressSpaceOfAddress(name)
}

/**
 * The address space of a URL host, resolving a name with `dns.lookup` (the system resolver,
 * `/etc/hosts` included, as the browser on this machine uses it) and placing the first
 * address. `undefined` when the name does not resolve. `lookupAddress` replaces the resolver (tests).
 *
 * @example
 * await resolveAddressSpace('router.lan') // 'local' when it resolves to 192.168.1.1
 */
export async function resolveAddressSpace(
  host: string,
  lookupAddress: (host: string) => Promise<{ address: string }> = lookup,
): Promise<AddressSpace | undefined> {
  const known = addressSpaceOfHost(host)
  if (known !== undefined) return known
  try {
    const { address } = await lookupAddress(host.replace(/^\[|\]$/g, ''))
    return addressSpaceOfAddress(address)
  } catch {
    return undefined
  }
}
