import { corsDevProxy } from '@cors-dev-proxy/webpack'
import { rspack } from '@rspack/core'
import { routes } from '../routes.mjs'

export default {
  mode: 'development',
  entry: './src/index.js',
  plugins: [new rspack.HtmlRspackPlugin({ title: 'Rspack' })],
  devServer: { ...corsDevProxy(routes) },
}
