import { createRequire } from 'node:module'
import webpack from 'webpack'

const require = createRequire('/work/main/test/adapters/x.js')
const WDS = (await import('wds5')).default
const mode = process.argv[2]
const app = '/work/main/test/fixtures/webpack-app'
const t0 = process.cpuUsage()
const w0 = Date.now()
for (let i = 0; i < 4; i++) {
  const compiler = webpack({
    mode: 'development',
    context: app,
    entry: './index.js',
    output: { path: '/tmp/wds-out-' + i },
    devtool: false,
    stats: 'none',
    infrastructureLogging: { level: 'none' },
    ...(mode === 'fs' ? { cache: { type: 'filesystem', cacheDirectory: '/tmp/wds-cache-test' } } : {}),
  })
  const s = new WDS(
    { host: '127.0.0.1', port: 0, static: false, open: false, setupExitSignals: false, server: 'http' },
    compiler,
  )
  await s.start()
  await new Promise((r) => compiler.hooks.done.tap('x', r))
  await s.stop()
  await new Promise((r) => compiler.close(r))
  const c = process.cpuUsage(t0)
  console.log(i, ((c.user + c.system) / 1e6).toFixed(2), 'CPU-s', Date.now() - w0, 'ms')
}
