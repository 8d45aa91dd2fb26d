import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { type AdapterHarness, createLogCapture, type DevServerHandle } from './adapter-harness.js'
import { WDS_ALIAS, wdsVersion } from './webpack-server.js'

/** The config files of test/fixtures: the same config written as CommonJS and as ESM. */
export type WebpackConfigFile = 'webpack.config.cjs' | 'webpack.config.mjs'

const DIST = fileURLToPath(new URL('../../packages/webpack/dist/index.js', import.meta.url))
const SERVE = fileURLToPath(new URL('../fixtures/serve-webpack-config.mjs', import.meta.url))
const LISTENING = 'CDP_LISTENING '

/**
 * The adapter suite's view of webpack-dev-server started from a config file in a child process,
 * loaded as webpack-cli loads it (`require()` for `.cjs`, `import()` for `.mjs`) and importing
 * the BUILT package, outside vitest's module graph: what a user's CommonJS or ESM config does.
 * Routes, options and the certificate reach the config as JSON in the environment, so routes
 * must be plain data. Log lines are the child's stdout and stderr, as they arrive.
 */
export function webpackConfigHarness(configFile: WebpackConfigFile): AdapterHarness {
  const config = fileURLToPath(new URL(`../fixtures/${configFile}`, import.meta.url))
  return {
    name: `${WDS_ALIAS} ${wdsVersion} from ${configFile}`,
    async start(setup): Promise<DevServerHandle> {
      if (!existsSync(DIST)) {
        throw new Error('packages/webpack/dist is missing: run `npx tsc -b packages/webpack` first')
      }
      const output = await mkdtemp(join(tmpdir(), 'cdp-webpack-config-'))
      const capture = createLogCapture()
      const child = spawn(process.execPath, [SERVE, config, WDS_ALIAS], {
        env: {
          ...process.env,
          CDP_ROUTES: JSON.stringify(setup.routes),
          CDP_OPTIONS: JSON.stringify(setup.options ?? {}),
          CDP_TLS: setup.tls ? JSON.stringify({ cert: setup.tls.cert, key: setup.tls.key }) : '',
          CDP_OUTPUT: output,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      const exited = once(child, 'exit')
      createInterface({ input: child.stderr }).on('line', (line) => capture.push('info', line))
      const listening = new Promise<{ port: number; node: string }>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (line.startsWith(LISTENING)) resolve(JSON.parse(line.slice(LISTENING.length)))
          else capture.push('info', line)
        })
        void exited.then(([code]) =>
          reject(new Error(`the dev server exited (${code}) before listening:\n${capture.logs.join('\n')}`)),
        )
      })
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.stdin.end()
          await exited
        }
        await rm(output, { recursive: true, force: true })
      }
      let started: { port: number; node: string }
      try {
        started = await listening
        // The cell's Node must be the one running the config (webpack-dev-server 6 needs Node 24).
        if (started.node !== process.version) {
          throw new Error(`the config ran on Node ${started.node}, the suite on ${process.version}`)
        }
      } catch (error) {
        await stop()
        throw error
      }
      return {
        origin: `${setup.tls ? 'https' : 'http'}://127.0.0.1:${started.port}`,
        logs: capture.logs,
        close: stop,
      }
    },
  }
}
