import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * The absolute path of `program` on `PATH` (with Windows' `PATHEXT` endings), or `undefined`
 * when it is not installed. Looked up once by the caller, not per request.
 *
 * @example
 * findProgram('caddy') // '/usr/bin/caddy'
 */
export function findProgram(program: string, path = process.env.PATH ?? ''): string | undefined {
  const endings = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE').split(';') : ['']
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue
    for (const ending of endings) {
      const candidate = join(dir, `${program}${ending}`)
      try {
        accessSync(candidate, constants.X_OK)
        return candidate
      } catch {
        // Not in this directory.
      }
    }
  }
  return undefined
}
