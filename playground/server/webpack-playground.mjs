// Starts webpack-dev-server with the playground's webpack.config.mjs: over http, or over
// HTTP/2 with the connect app webpack-dev-server documents for `server: 'http2'`.
import connect from 'connect'
import webpack from 'webpack'
import WebpackDevServer from 'webpack-dev-server'

/**
 * @param {{ port: number, https?: { cert: string, key: string } }} options
 */
export async function startWebpackPlayground({ port, https }) {
  const { default: config } = await import('../webpack.config.mjs')
  const { devServer, ...webpackConfig } = config
  const quiet = Boolean(process.env.PLAYGROUND_QUIET)
  const compiler = webpack({
    ...webpackConfig,
    stats: quiet ? 'none' : 'errors-warnings',
    // The HTTP/2 twin serves the same routes: only the first server prints its info lines (the routes line once).
    infrastructureLogging: { level: quiet ? 'none' : https ? 'warn' : 'info' },
  })
  const server = new WebpackDevServer(
    {
      ...devServer,
      host: '127.0.0.1',
      port,
      open: false,
      setupExitSignals: false,
      ...(https ? { server: { type: 'http2', options: https }, app: () => connect() } : { server: 'http' }),
    },
    compiler,
  )
  await server.start()
  return {
    port: server.server.address().port,
    close: async () => {
      await server.stop()
      await new Promise((resolve) => compiler.close(resolve))
    },
  }
}
