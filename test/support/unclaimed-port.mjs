// A port for a program that cannot listen on port 0 and report its port (nginx, Caddy, a docs
// sample run as its own process, a framework's dev server started by its CLI), shared by the tests
// (reverse-proxy.ts, run-doc-sample.ts) and the framework suite (test/frameworks/lib/backend.mjs).
//
// A port that was listened on at 0 and closed is not sound for this: the kernel hands it out again
// to the next `listen(0)` or outgoing connection, so another test file's server or client (or any
// process on the machine) can take it before the program binds it. A port below the kernel's
// ephemeral range (32768-60999 by default) is never handed out that way: only a process that asks
// for it by number gets it. So the port is picked at random in 10000-19999 (below the range, and
// clear of the usual development ports), and checked free by binding it once; two callers picking
// the same one by chance is a start that fails loudly, not a test talking to the wrong server.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

const LOW = 10_000
const HIGH = 19_999

/** The lowest port of the kernel's ephemeral range (32768 where it cannot be read). */
function ephemeralLow() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    return Number.isInteger(low) ? low : 32_768
  } catch {
    return 32_768
  }
}

/**
 * Whether `port` on 127.0.0.1 can be bound now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function bindable(port) {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

/**
 * A free port on 127.0.0.1 below the kernel's ephemeral range, for a program that takes a fixed
 * port: no `listen(0)` and no outgoing connection can take it before the program binds it.
 * @returns {Promise<number>}
 * @example
 * const port = await unclaimedPort()
 * const nginx = await startNginx(snippet, port)
 */
export async function unclaimedPort() {
  if (ephemeralLow() <= HIGH)
    throw new Error(`the ephemeral port range starts at ${ephemeralLow()}: pick ports below it`)
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1))
    if (await bindable(port)) return port
  }
  throw new Error(`no free port in ${LOW}-${HIGH} after 50 tries`)
}
