import { describe, it } from 'vitest'

/** What a group of tests needs from the machine: there, or why not and how to get it. */
export type Requirement = { readonly ok: true } | { readonly ok: false; readonly reason: string }

/**
 * Whether `CI` asks for a run where nothing may be skipped (`CI=true`, as `.ci/run` sets it; any
 * value but `false` and `0` counts, as most CI services set `CI=1` or `CI=true`).
 */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}

/**
 * Decides whether the tests named `what` are skipped because the machine lacks what they need.
 * On a developer's machine a missing program or root skips them with a `SKIPPED (not passed)`
 * line. Under CI nothing may be skipped: a test named after the requirement is registered in
 * their place, and it fails with the reason (which carries the install command), because a test
 * that never runs in CI is tested by nobody.
 *
 * @param what the tests, as the skipped line and the failing test name them
 * @param requirements every requirement of those tests; the first unmet one decides
 * @returns true when the caller must skip its tests (`describe.skipIf(skip)`)
 * @example
 * const skip = skipUnmet('lab loss experiments', labNetworkSupport())
 * describe.skipIf(skip)('the lab network', () => { ... })
 */
export function skipUnmet(what: string, ...requirements: readonly Requirement[]): boolean {
  const unmet = requirements.find((requirement) => !requirement.ok)
  if (unmet === undefined || unmet.ok) return false
  if (isCi()) {
    describe(`${what} (needs what this machine lacks)`, () => {
      it('has what it needs under CI, where nothing is skipped', () => {
        // The reason says what to do: the install command, or to run as root.
        throw new Error(`${what} cannot run: ${unmet.reason}`)
      })
    })
  } else {
    console.warn(`SKIPPED (not passed): ${what}: ${unmet.reason}`)
  }
  return true
}

/**
 * The requirement of a program on PATH, found by the caller (`findProgram`).
 * @example
 * programRequirement('caddy', findProgram('caddy'), 'caddy')
 */
export function programRequirement(
  program: string,
  found: string | undefined,
  debianPackage: string,
): Requirement {
  return found === undefined
    ? {
        ok: false,
        reason: `\`${program}\` is not on PATH (Debian/Ubuntu: apt-get install -y ${debianPackage})`,
      }
    : { ok: true }
}
