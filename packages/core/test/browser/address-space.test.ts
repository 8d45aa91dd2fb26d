import { describe, expect, it } from 'vitest'
import {
  type AddressSpace,
  addressSpaceOfAddress,
  addressSpaceOfHost,
  resolveAddressSpace,
} from '../../src/browser/address-space.js'

// Chromium's IP address space table, with each block's bounds and its neighbours on both sides.
const rows: Array<[address: string, space: AddressSpace | undefined]> = [
  ['127.0.0.1', 'loopback'],
  ['126.255.255.255', 'public'],
  ['127.0.0.0', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', 'public'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::2', 'public'],
  ['::', 'loopback'],
  ['0.0.0.0', 'loopback'],
  ['0.0.0.4', 'local'],
  ['0.255.255.255', 'local'],
  ['9.255.255.255', 'public'],
  ['10.0.0.0', 'local'],
  ['10.255.255.255', 'local'],
  ['11.0.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.16.0.0', 'local'],
  ['172.31.255.255', 'local'],
  ['172.32.0.0', 'public'],
  ['192.167.255.255', 'public'],
  ['192.168.0.0', 'local'],
  ['192.168.255.255', 'local'],
  ['192.169.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['169.254.0.0', 'local'],
  ['169.254.255.255', 'local'],
  ['169.255.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.64.0.0', 'local'],
  ['100.127.255.255', 'local'],
  ['100.128.0.0', 'public'],
  // IPv4 documentation blocks are not in the table: public
  ['192.0.2.2', 'public'],
  ['203.0.113.7', 'public'],
  ['8.8.8.8', 'public'],
  ['42::', 'public'],
  ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['fc00::', 'local'],
  ['fd00::2', 'local'],
  ['[fd00::2]', 'local'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'local'],
  ['fe00::', 'public'],
  ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['fe80::', 'local'],
  ['FE80::1', 'local'],
  ['fec0::', 'local'],
  ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'local'],
  ['ff00::', 'public'],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2001:db8::', 'local'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'local'],
  ['2001:db9::', 'public'],
  ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['3fff::', 'local'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'local'],
  ['3fff:1000::', 'public'],
  // IPv4-mapped IPv6 counts as its IPv4 address, in either spelling
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:192.168.1.1', 'local'],
  ['::ffff:c0a8:101', 'local'],
  ['::ffff:8.8.8.8', 'public'],
  ['example.com', undefined],
  ['', undefined],
  ['999.1.1.1', undefined],
]

describe('addressSpaceOfAddress', () => {
  it.each(rows)('%s is %s', (address, space) => {
    expect(addressSpaceOfAddress(address)).toBe(space)
  })
})

describe('addressSpaceOfHost', () => {
  it.each([
    ['localhost', 'loopback'],
    ['LocalHost', 'loopback'],
    ['localhost.', 'loopback'],
    ['app.localhost', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['192.168.1.5', 'local'],
    ['notlocalhost', undefined],
    ['localhost.example.com', undefined],
    ['example.com', undefined],
  ] as const)('%s is %s', (host, space) => {
    expect(addressSpaceOfHost(host)).toBe(space)
  })
})

describe('resolveAddressSpace', () => {
  it('places literals and localhost names without DNS', async () => {
    expect(await resolveAddressSpace('10.0.0.1')).toBe('local')
    expect(await resolveAddressSpace('api.localhost')).toBe('loopback')
  })

  it('resolves a name with the system resolver, and gives undefined when it does not resolve', async () => {
    const asked: string[] = []
    const fake = async (host: string) => {
      asked.push(host)
      if (host === 'router.lan') return { address: '192.168.1.1' }
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    }
    expect(await resolveAddressSpace('router.lan', fake)).toBe('local')
    expect(await resolveAddressSpace('nowhere.lan', fake)).toBeUndefined()
    expect(asked).toEqual(['router.lan', 'nowhere.lan'])
    // The real resolver: `.invalid` never resolves (RFC 6761).
    expect(await resolveAddressSpace('does-not-exist.invalid')).toBeUndefined()
  })
})
