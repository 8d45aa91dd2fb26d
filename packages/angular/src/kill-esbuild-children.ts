import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/** The name esbuild's service process runs under (`@esbuild/<platform>/bin/esbuild`). */
const ESBUILD = 'esbuild'

/**
 * The ids of this process's direct children whose command is `name`: from `/proc` on Linux, from
 * `pgrep -P` elsewhere (macOS and the BSDs have it); none where neither answers (Windows).
 */
function childrenNamed(name: string, parent: number): number[] {
  if (process.platform === 'linux') {
    const found: number[] = []
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        if (ppid === parent && comm === name) found.push(Number(entry))
      } catch {
        // The process ended while the list was read.
      }
    }
    return found
  }
  if (process.platform === 'win32') return []
  const listed = spawnSync('pgrep', ['-P', String(parent), '-x', name], { encoding: 'utf8' })
  return (listed.stdout ?? '').split('\n').filter(Boolean).map(Number)
}

/**
 * Kills this process's esbuild service processes at once (SIGKILL), before the process exits.
 *
 * Why: esbuild's own `stop()` closes the service's stdin before it signals it, and a service that
 * reads the end of its input with a request in flight prints `fatal error: all goroutines are
 * asleep - deadlock!` and a goroutine dump (evanw/esbuild#2485) before the signal lands: on a busy
 * machine it often does. A killed process prints nothing.
 *
 * @example
 * killEsbuildChildren() // then process.exit(1)
 */
export function killEsbuildChildren(parent: number = process.pid): number[] {
  const killed: number[] = []
  for (const pid of childrenNamed(ESBUILD, parent)) {
    try {
      process.kill(pid, 'SIGKILL')
      killed.push(pid)
    } catch {
      // Already gone.
    }
  }
  return killed
}
