import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The files that mark an Angular workspace's root, as the Angular CLI looks for them. */
const WORKSPACE_FILES = ['angular.json', '.angular.json']

/**
 * The Angular workspace's root: the nearest folder, from `from` upwards, that holds
 * `angular.json` (or `.angular.json`); `from` itself when none does. It is where a relative
 * `recordings.dir` goes under `ng serve`.
 *
 * Why a lookup: the proxy file never sees the dev server (Vite's `configure` and `bypass` get the
 * entry's options, not its config), and the Angular CLI finds the workspace the same way from
 * its working directory without changing into it, so `ng serve` run in a subfolder still serves
 * the workspace above it.
 *
 * @example
 * angularWorkspaceRoot('/work/shop/src/app') // '/work/shop', where angular.json is
 */
export function angularWorkspaceRoot(from: string = process.cwd()): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (WORKSPACE_FILES.some((name) => existsSync(join(folder, name)))) return folder
    if (dirname(folder) === folder) return from
  }
}
