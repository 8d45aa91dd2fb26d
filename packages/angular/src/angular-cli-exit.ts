import { realpathSync, writeSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { killEsbuildChildren } from './kill-esbuild-children.js'
import { angularWorkspaceRoot } from './workspace-root.js'

/** The Angular CLI's executable, as `@angular/cli` publishes it (`"bin": { "ng": "./bin/ng.js" }`). */
const ANGULAR_CLI_BIN = /[\\/]@angular[\\/]cli[\\/]bin[\\/]ng(?:\.js)?$/

/**
 * Whether this process is the Angular CLI (`ng serve`, `ng run app:serve`, through npx, a
 * package script or a global install): its main script, symbolic links followed (npm's
 * `node_modules/.bin/ng` is one), is `@angular/cli/bin/ng.js`. The CLI runs its builders in
 * its own process, so the proxy file is loaded there.
 *
 * @example
 * runByAngularCli('/app/node_modules/@angular/cli/bin/ng.js') // true
 */
export function runByAngularCli(main: string | undefined = process.argv[1]): boolean {
  if (main === undefined) return false
  let file = main
  try {
    file = realpathSync(main)
  } catch {
    // A main script that cannot be resolved is judged by its name.
  }
  return ANGULAR_CLI_BIN.test(file)
}

/** What {@link exitAngularCliOnConfigurationError} needs from the process: replaceable in tests. */
export interface ConfigurationErrorExit {
  /** Whether the Angular CLI loaded the proxy file. */
  angularCli: boolean
  /** Writes the message where the user reads it. */
  write(text: string): void
  /** Ends the process. */
  exit(code: number): void
}

/** Writes to stderr at once: `process.exit` right after must not lose the message (a pipe on macOS is asynchronous). */
function writeStderr(text: string): void {
  try {
    writeSync(2, text)
  } catch {
    process.stderr.write(text)
  }
}

/** The packages of the Angular CLI's builders, whose esbuild the build started. */
const BUILDERS = ['@angular/build', '@angular-devkit/build-angular']

/** Where `builder` is installed, for `require` from there; `undefined` when it is not. */
function requireFrom(workspace: NodeJS.Require, builder: string): NodeJS.Require | undefined {
  for (const entry of [`${builder}/package.json`, builder]) {
    try {
      return createRequire(workspace.resolve(entry))
    } catch {
      // Not exported under that name, or not installed: the next, or none.
    }
  }
  return undefined
}

/**
 * Stops the esbuild service the Angular CLI's build runs, when it is loaded (its `stop()` kills the
 * service's child process). Nothing when it is not.
 *
 * Why: the Angular CLI builds before it loads the proxy file, and exiting while esbuild's service
 * has a request in flight makes the service print `fatal error: all goroutines are asleep -
 * deadlock!` and a goroutine dump after our message (evanw/esbuild#2485, #3636); Ctrl-C does not,
 * because the service gets the signal too. The module is looked up in the require cache only, so
 * it is the instance the builder uses, never a second one.
 *
 * @example
 * stopBuildersEsbuild('/work/shop') // before process.exit under ng serve
 */
export function stopBuildersEsbuild(root: string = angularWorkspaceRoot()): void {
  const workspace = createRequire(join(root, 'package.json'))
  for (const builder of BUILDERS) {
    try {
      const fromBuilder = requireFrom(workspace, builder)
      const loaded = fromBuilder === undefined ? undefined : workspace.cache[fromBuilder.resolve('esbuild')]
      ;(loaded?.exports as { stop?: () => unknown } | undefined)?.stop?.()
    } catch {
      // No esbuild beside that builder: nothing to stop.
    }
  }
}

const PROCESS_EXIT: ConfigurationErrorExit = {
  get angularCli() {
    return runByAngularCli()
  },
  write: writeStderr,
  exit: (code) => {
    // Killed first: esbuild's stop() alone races its service's end-of-input message.
    killEsbuildChildren()
    stopBuildersEsbuild()
    process.exit(code)
  },
}

/**
 * Ends `ng serve` on a configuration mistake, after printing the mistake alone, with exit code 1.
 *
 * Why: the Angular CLI loads the proxy file inside its builder; whatever the file throws is
 * printed as "An unhandled exception occurred", with a stack in a log file, and the command then
 * keeps running without listening until Ctrl-C (its build watcher holds the process). Outside
 * the Angular CLI (tests, other hosts, a programmatic caller) nothing happens here and the caller
 * throws the error as usual.
 *
 * @example
 * try { resolveOptions(routes) } catch (error) { exitAngularCliOnConfigurationError(error); throw error }
 */
export function exitAngularCliOnConfigurationError(
  error: unknown,
  host: ConfigurationErrorExit = PROCESS_EXIT,
): void {
  // By name, not `instanceof`: a second copy of the core in node_modules throws the same error.
  if (!(error instanceof Error) || error.name !== 'CorsDevProxyError' || !host.angularCli) return
  host.write(`${error.message}\n`)
  host.exit(1)
}
