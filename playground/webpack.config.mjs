// The playground's webpack config: what a user writes (the devServer spread), plus the
// playground's own small API, composed through corsDevProxy's `setupMiddlewares` option.
import { fileURLToPath } from 'node:url'
import { corsDevProxy } from '@cors-dev-proxy/webpack'
import { createLabApi } from './server/lab-api.mjs'
import { createPlaygroundApi, playgroundEnv } from './server/playground-api.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))
// `pnpm playground:webpack` starts the backends first and passes their addresses here.
const backend = process.env.PLAYGROUND_BACKEND ?? 'http://localhost:3001'

export default {
  mode: 'development',
  context: root,
  devtool: false,
  entry: {
    'src/main': './src/main.js',
    'src/bench-frame': './src/bench-frame.js',
    'src/lab': './src/lab.js',
  },
  output: { path: `${root}.webpack`, filename: '[name].js', module: true, publicPath: '/' },
  experiments: { outputModule: true },
  devServer: {
    // index.html, bench.html, lab.html and the styles as they are; the scripts come from the build.
    static: { directory: root, watch: false },
    hot: false,
    liveReload: false,
    client: false,
    ...corsDevProxy(
      { '/api': { target: backend, ws: true } },
      {
        // The playground makes blocked calls on purpose and explains each in its own row: no overlay.
        overlay: false,
        setupMiddlewares(middlewares) {
          middlewares.unshift({ name: 'playground-api', middleware: createPlaygroundApi(playgroundEnv) })
          middlewares.unshift({ name: 'lab-api', middleware: createLabApi() })
          return middlewares
        },
      },
    ),
  },
}
