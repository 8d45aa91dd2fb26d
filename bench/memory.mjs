// Peak resident memory of a proxy process while 1 GiB goes through it, read from Linux's /proc:
// VmRSS sampled every 10 ms, and the kernel's own high-water mark (VmHWM, reset before the
// transfer with clear_refs 5 where allowed) for a peak between two samples. The kernel updates
// the mark lazily, so neither alone is the whole truth; the larger of the two is reported.
import { readFileSync, writeFileSync } from 'node:fs'
import { runTool } from './processes.mjs'

/** A field of /proc/<pid>/status in MiB (`VmRSS`, `VmHWM`). */
function statusMiB(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1])
  return kib / 1024
}

function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

async function runClient(client, job) {
  const { stdout, stderr } = await runTool(process.execPath, [client, JSON.stringify([job])], {
    timeoutMs: 300_000,
  })
  const line = /^BENCH-RESULT (.*)$/m.exec(stdout)
  if (!line) throw new Error(`clients.mjs printed no result:\n${stdout}${stderr}`)
  const [result] = JSON.parse(line[1])
  if (result.error) throw new Error(result.error)
  return result
}

/**
 * Sends `warmup` (so that buffers and pools exist), then `job` through the proxy of process
 * `pid`, and reports the job's MB/s and how far the process's resident set grew above where it
 * was just before the job.
 * @param {{ pid: number, client: string, warmup: object, job: object }} run
 */
export async function measureMemory({ pid, client, warmup, job }) {
  if (warmup.bytes > 0) await runClient(client, warmup)
  const exact = resetPeak(pid)
  const before = statusMiB(pid, 'VmRSS')
  let sampled = before
  const timer = setInterval(() => {
    sampled = Math.max(sampled, statusMiB(pid, 'VmRSS'))
  }, 10)
  try {
    const result = await runClient(client, job)
    const peak = Math.max(sampled, exact ? statusMiB(pid, 'VmHWM') : 0)
    return {
      mbps: result.mbps,
      seconds: result.seconds,
      rssBeforeMiB: Math.round(before),
      rssGrowthMiB: Math.round(Math.max(0, peak - before) * 10) / 10,
      peakFrom: exact ? 'VmRSS every 10 ms and VmHWM' : 'VmRSS every 10 ms',
    }
  } finally {
    clearInterval(timer)
  }
}
