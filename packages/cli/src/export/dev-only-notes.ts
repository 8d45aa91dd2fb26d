import type { ResolvedForwardRoute } from '@cors-dev-proxy/core/adapter'

/*
 * The backend the dev proxy controls (`targets`, the faults, `record`, `replay`) is a
 * development tool: an nginx or Caddy export stands in for the dev server's forwarding, so it
 * forwards to the target in use and leaves the rest out, saying so once per option.
 */

type Faults = NonNullable<NonNullable<ResolvedForwardRoute['control']>['faults']>

/** What the route-wide faults would do in the dev proxy, option by option. */
function faultNotes(faults: Faults | undefined, label: string): string[] {
  if (faults === undefined) return []
  const notes: string[] = []
  if (faults.latency !== undefined)
    notes.push(`${label}.latency: not exported (a dev-time fault), requests are forwarded without delay.`)
  if (faults.failRate > 0)
    notes.push(
      `${label}.failRate: not exported (a dev-time fault), no request is answered ${faults.failWith === 'reset' ? 'with a reset' : faults.failWith} on purpose.`,
    )
  if (faults.throttle !== undefined)
    notes.push(`${label}.throttle: not exported (a dev-time fault), bodies go at full speed.`)
  return notes
}

/**
 * One sentence per backend-control or recordings option of `route` that an export cannot
 * carry, naming it at `label` (`routes['/api']`): the faults and `faults` entries, `record` and
 * `replay` are left out; with `targets`, the export forwards to the target in use (the first,
 * or the one `cors-dev-proxy.local.json` or `CORS_DEV_PROXY_TARGETS` picked), and says which.
 *
 * @example
 * devOnlyNotes(route, "routes['/api']") // ["routes['/api'].latency: not exported (a dev-time fault), …"]
 */
export function devOnlyNotes(route: ResolvedForwardRoute, label: string): string[] {
  const notes: string[] = []
  const control = route.control
  if (control !== undefined) {
    if (control.targets.length > 0) {
      const names = control.targets.map((target) => target.name).join(', ')
      notes.push(
        `${label}.targets: exported with the target in use, '${control.initial}' (${route.target.href}) of ${names}; for another, export with CORS_DEV_PROXY_TARGETS=${route.prefix}=<name>.`,
      )
    }
    notes.push(...faultNotes(control.faults, label))
    const active = control.rules.filter(
      (rule) =>
        rule.faults.latency !== undefined || rule.faults.failRate > 0 || rule.faults.throttle !== undefined,
    )
    if (active.length > 0) {
      const keys = active.map((rule) => `'${rule.key}'`).join(', ')
      notes.push(
        `${label}.faults (${keys}): not exported (dev-time faults), those paths are forwarded as the others.`,
      )
    }
  }
  if (route.record) notes.push(`${label}.record: not exported, nothing is recorded.`)
  if (route.replay === 'fallback')
    notes.push(
      `${label}.replay: not exported, a target that is down is answered 502 by the server, not replayed.`,
    )
  if (route.replay === 'only')
    notes.push(`${label}.replay: not exported, every request is forwarded to the target instead of replayed.`)
  return notes
}
