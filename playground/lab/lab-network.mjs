// The lab's own network: a network namespace joined to this one by a veth pair, where nftables
// rules drop a share of the packets or every UDP datagram. Only the namespace's side carries the
// rules, so nothing outside it is touched; deleting the namespace deletes the pair and the rules.
// Chromium runs inside it (through a wrapper script), the servers stay outside on the pair's
// host address, so every packet between them crosses the rules.
import { execFile, execFileSync } from 'node:child_process'
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/** Every namespace of ours starts with this, followed by the pid that made it. */
const PREFIX = 'cdp-lab-'
/** A namespace deletes itself after this long, whatever happens to the run. */
const DEFAULT_LIFETIME_MS = 15 * 60_000

/** Whether `program` is on PATH. */
function onPath(program) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/**
 * Whether the lab can shape traffic here, and if not, why (printed by the tests, the benchmark
 * and the page): Linux, root (namespaces and nftables need CAP_NET_ADMIN), `ip` and `nft`.
 * @returns {{ ok: true } | { ok: false, reason: string }}
 */
export function labNetworkSupport() {
  if (process.platform !== 'linux') {
    return {
      ok: false,
      reason: `packet loss and UDP blocking need Linux network namespaces (this is ${process.platform})`,
    }
  }
  if (process.getuid?.() !== 0) {
    return {
      ok: false,
      reason: 'packet loss and UDP blocking need root (a network namespace and nftables rules): run as root',
    }
  }
  for (const program of ['ip', 'nft']) {
    if (!onPath(program)) {
      return {
        ok: false,
        reason: `\`${program}\` is not installed (Debian/Ubuntu: apt-get install ${program === 'ip' ? 'iproute2' : 'nftables'})`,
      }
    }
  }
  return { ok: true }
}

function run(file, args, input) {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || error.message}`))
      else resolve(stdout)
    })
    if (input !== undefined) child.stdin?.end(input)
  })
}

/** Whether process `pid` still runs. */
function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/** Deletes namespaces left by lab runs whose process is gone (a SIGKILL leaves no time to clean up). */
function deleteOrphans() {
  let names = ''
  try {
    names = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8', timeout: 5000 })
  } catch {
    return
  }
  for (const line of names.split('\n')) {
    const name = line.split(' ')[0] ?? ''
    const pid = Number(name.slice(PREFIX.length).split('-')[0])
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && !alive(pid)) {
      try {
        execFileSync('ip', ['netns', 'delete', name], { timeout: 5000 })
      } catch {
        // Gone already.
      }
    }
  }
}

/** A third octet for 10.213.X.0/30 that no address of this machine uses (two labs may run at once). */
function freeSubnet() {
  let taken = ''
  try {
    taken = execFileSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8', timeout: 5000 })
  } catch {
    // Without the list, a random choice is still unlikely to clash.
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const subnet = 1 + Math.floor(Math.random() * 250)
    if (!taken.includes(`10.213.${subnet}.`)) return subnet
  }
  throw new Error('no free 10.213.X.0/30 subnet for the lab network')
}

/**
 * Creates the lab's namespace, veth pair and (empty) nftables table, and a Chromium wrapper that
 * runs inside the namespace. The namespace is deleted by `close()`, at process exit, on SIGINT
 * and SIGTERM, and after `lifetimeMs` at the latest.
 * @param {{ chromiumPath?: string, lifetimeMs?: number }} [options]
 */
export async function createLabNetwork({
  chromiumPath = '/usr/bin/chromium',
  lifetimeMs = DEFAULT_LIFETIME_MS,
} = {}) {
  const support = labNetworkSupport()
  if (!support.ok) throw new Error(support.reason)
  deleteOrphans()
  const tag = Math.random().toString(36).slice(2, 7)
  const name = `${PREFIX}${process.pid}-${tag}`
  // Interface names have 15 characters at most.
  const hostSide = `cdpl${tag}h`
  const nsSide = `cdpl${tag}n`
  const subnet = freeSubnet()
  const hostAddress = `10.213.${subnet}.1`
  const nsAddress = `10.213.${subnet}.2`
  const dir = mkdtempSync(join(tmpdir(), 'cdp-lab-'))
  const wrapper = join(dir, 'chromium-in-lab')
  writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${name} ${chromiumPath} "$@"\n`)
  chmodSync(wrapper, 0o755)

  let closed = false
  const deleteNow = () => {
    if (closed) return
    closed = true
    clearTimeout(deadline)
    process.off('exit', deleteNow)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    try {
      // Deleting the namespace takes its end of the pair, hence the pair, and its nftables rules.
      execFileSync('ip', ['netns', 'delete', name], { timeout: 5000, stdio: 'ignore' })
    } catch {
      // Never created, or gone.
    }
    rmSync(dir, { recursive: true, force: true })
  }
  // A signal nobody else handles would end the process without 'exit': clean up, then let it end.
  const onSignal = (signal) => {
    deleteNow()
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
  }
  process.once('exit', deleteNow)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const deadline = setTimeout(deleteNow, lifetimeMs)
  deadline.unref()

  const inside = (...args) => run('ip', ['netns', 'exec', name, ...args])
  try {
    await run('ip', ['netns', 'add', name])
    await run('ip', ['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide])
    await run('ip', ['link', 'set', nsSide, 'netns', name])
    // No IPv6 link-local addresses: one appearing a second after the link comes up is a network
    // change to Chromium, which then aborts every request in flight (ERR_NETWORK_CHANGED).
    await run('ip', ['link', 'set', 'dev', hostSide, 'addrgenmode', 'none'])
    await inside('ip', 'link', 'set', 'dev', nsSide, 'addrgenmode', 'none')
    await run('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostSide])
    await run('ip', ['link', 'set', hostSide, 'up'])
    await inside('ip', 'addr', 'add', `${nsAddress}/30`, 'dev', nsSide)
    await inside('ip', 'link', 'set', nsSide, 'up')
    await inside('ip', 'link', 'set', 'lo', 'up')
    // Netdev hooks on the namespace's end of the pair, not the inet output hook: a packet dropped
    // there is refused to the sending socket (EPERM), which QUIC takes as a dead connection; at
    // the device's egress it is lost on the wire, as a lossy link loses it.
    await nft(
      `table netdev cdplab {\n chain out { type filter hook egress device "${nsSide}" priority 0; policy accept; }\n chain in { type filter hook ingress device "${nsSide}" priority 0; policy accept; }\n}\n`,
    )
  } catch (error) {
    deleteNow()
    throw error
  }
  /** What the rules are now. */
  let state = { loss: 0, udpBlocked: false }
  return {
    name,
    /** The address servers listen on (this side of the pair). */
    hostAddress,
    /** Chromium's address (inside the namespace). */
    nsAddress,
    /** An executable that runs Chromium inside the namespace, for playwright's `executablePath`. */
    chromiumWrapper: wrapper,
    /**
     * Drops `percent` % of the packets in each direction on the pair (0 removes the rule), chosen
     * at random per packet by nftables' `numgen random`.
     * @param {number} percent
     */
    async setLoss(percent) {
      await setRules({ loss: percent })
    },
    /** Drops every UDP datagram on the pair (QUIC), or lets them through again with `false`. */
    async blockUdp(blocked = true) {
      await setRules({ udpBlocked: blocked })
    },
    /** The namespace's rules as `nft list` prints them, for the page and the logs. */
    rules: () => inside('nft', 'list', 'table', 'netdev', 'cdplab'),
    close: async () => deleteNow(),
  }

  function nft(script) {
    return run('ip', ['netns', 'exec', name, 'nft', '-f', '-'], script)
  }
  async function setRules(change) {
    state = { ...state, ...change }
    const rules = []
    if (state.udpBlocked) rules.push('meta l4proto udp drop')
    if (state.loss > 0) rules.push(`numgen random mod 100 < ${Math.round(state.loss)} drop`)
    const lines = rules.flatMap((rule) => [
      `add rule netdev cdplab out ${rule}`,
      `add rule netdev cdplab in ${rule}`,
    ])
    await nft(['flush chain netdev cdplab out', 'flush chain netdev cdplab in', ...lines, ''].join('\n'))
  }
}
