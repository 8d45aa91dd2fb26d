import { readFileSync } from 'node:fs'
import { connect } from 'node:net'

/*
 * A backend that is down, for the tests that need one. Closing a server that listened on port 0
 * and pointing at its port is not sound: the kernel hands that port out again to the next
 * `listen(0)` or outgoing connection, so another test file's server (or any process on the machine)
 * can take it between the close and the request, and the "down" backend answers. On a loaded
 * machine with two workers starting servers, that happened.
 *
 * Port 2 on the loopback address cannot be taken that way: it is below the ephemeral range the
 * kernel picks from (32768-60999 by default), so no `listen(0)` and no connection gets it, and it
 * is privileged, so only a root process that asks for it by number could listen there (nothing in
 * this repository does). It is not one of the Fetch standard's or Chromium's blocked ports (1, 7, 9
 * are), so a client refuses it for the right reason: ECONNREFUSED.
 */

/** The port nothing listens on; see the comment above for why it stays that way. */
export const REFUSED_PORT = 2

/** `http://127.0.0.1:2`: a target whose connections are refused. */
export const REFUSED_URL = `http://127.0.0.1:${REFUSED_PORT}`

/** The kernel's ephemeral range, `[low, high]`, or undefined off Linux. */
function ephemeralRange(): [number, number] | undefined {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number)
    return low !== undefined && high !== undefined ? [low, high] : undefined
  } catch {
    return undefined
  }
}

/**
 * The URL of a backend that is down (`<scheme>://127.0.0.1:2`), after checking that a connection
 * there is refused, so that a test fails with a clear reason rather than a strange one if the
 * machine ever listens on it.
 *
 * @example
 * const proxy = await startProxy({ '/api': await refusedUrl() })
 * expect((await sendRequest(`${proxy.url}/api/x`)).status).toBe(502)
 */
export async function refusedUrl(scheme = 'http'): Promise<string> {
  const range = ephemeralRange()
  if (range && REFUSED_PORT >= range[0] && REFUSED_PORT <= range[1]) {
    throw new Error(
      `port ${REFUSED_PORT} is in this machine's ephemeral range ${range.join('-')}: pick another`,
    )
  }
  const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    const socket = connect(REFUSED_PORT, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(undefined)
    })
    socket.once('error', resolve)
  })
  if (error?.code !== 'ECONNREFUSED') {
    throw new Error(
      `127.0.0.1:${REFUSED_PORT} should refuse connections, got ${error?.code ?? 'a connection'}`,
    )
  }
  return `${scheme}://127.0.0.1:${REFUSED_PORT}`
}
