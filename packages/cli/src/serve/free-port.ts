import { createSocket } from 'node:dgram'
import { createServer } from 'node:net'

/** Whether `port` can be bound on `host` with `kind` (`tcp` or `udp`) right now. */
function canBind(kind: 'tcp' | 'udp', host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (kind === 'tcp') {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
      return
    }
    const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4')
    socket.once('error', () => {
      socket.close()
      resolve(false)
    })
    socket.bind({ port, address: host, exclusive: true }, () => socket.close(() => resolve(true)))
  })
}

/** The address to try ports on: a wildcard bind is checked on the wildcard itself. */
function bindAddress(host: string): string {
  return host === 'localhost' ? '127.0.0.1' : host.replace(/^\[|\]$/g, '')
}

/**
 * Whether this machine has the IPv6 loopback address (containers are often IPv4-only).
 *
 * @example
 * await hasIpv6Loopback() // true
 */
export function hasIpv6Loopback(): Promise<boolean> {
  return canBind('udp', '::1', 0)
}

/** The addresses a front on `host` binds: both loopbacks for a loopback host (see caddy-front-config.ts). */
function addressesOf(host: string, ipv6: boolean): string[] {
  const address = bindAddress(host)
  return address === '127.0.0.1' || address === '::1'
    ? ipv6
      ? ['127.0.0.1', '::1']
      : ['127.0.0.1']
    : [address]
}

/**
 * Whether `port` is free for both TCP and UDP on `host` (and on ::1 too with `ipv6`, for a
 * loopback host): an HTTP/3 front needs the same number
 * for both (HTTP/1.1 and HTTP/2 on TCP, QUIC on UDP), as `Alt-Svc: h3=":PORT"` names one port.
 *
 * @example
 * await isTcpAndUdpFree('127.0.0.1', 8443) // true
 */
export async function isTcpAndUdpFree(host: string, port: number, ipv6 = false): Promise<boolean> {
  for (const address of addressesOf(host, ipv6)) {
    if (!(await canBind('tcp', address, port)) || !(await canBind('udp', address, port))) return false
  }
  return true
}

/**
 * A port free for both TCP and UDP on `host`: the system picks a free TCP port, which is kept
 * when UDP is free on it too; on a clash another is tried (at most `attempts` times). A program
 * that cannot be told "port 0" (Caddy) gets a number this way; it may still lose a race, so the
 * caller retries once more on `EADDRINUSE`.
 *
 * @example
 * const port = await freeTcpAndUdpPort('127.0.0.1')
 */
export async function freeTcpAndUdpPort(host: string, ipv6 = false, attempts = 20): Promise<number> {
  const address = bindAddress(host)
  for (let i = 0; i < attempts; i++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer()
      server.once('error', reject)
      server.listen({ port: 0, host: address, exclusive: true }, () => {
        const bound = server.address()
        server.close(() => resolve(typeof bound === 'object' && bound !== null ? bound.port : 0))
      })
    })
    if (port !== 0 && (await isTcpAndUdpFree(host, port, ipv6))) return port
  }
  throw new Error(`no port free for both TCP and UDP on ${host} after ${attempts} attempts`)
}
