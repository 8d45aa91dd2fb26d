// The CPU time a benchmarked server has used, from /proc: what a request costs the contender's
// own process, which moves far less with the machine's load than its requests per second.
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc's utime and stime (100 on Linux). */
const TICK_US = 10_000

/** User + system time of one process so far, in µs; `undefined` without /proc. */
function ownCpuUs(pid) {
  try {
    // utime and stime are fields 14 and 15; the command name before them may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_US
  } catch {
    return undefined
  }
}

/** The direct children of a process (nginx's workers), from /proc/<pid>/task/<tid>/children. */
function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
    )
  } catch {
    return []
  }
}

/**
 * User + system CPU time, in µs, of a server process and its direct children (nginx's master
 * and worker), or `undefined` where /proc cannot be read.
 * @param {number} pid
 */
export function serverCpuUs(pid) {
  const own = ownCpuUs(pid)
  if (own === undefined) return undefined
  return childrenOf(pid).reduce((sum, child) => sum + (ownCpuUs(child) ?? 0), own)
}
