// The Vite 8 dev server the docs' screenshot scripts photograph an app in (docs/scripts/screenshots.mjs,
// scripts/docs-overlay-screenshots.mjs): the app's folder as its root, silent, no dependency
// scan and no file watcher, on 127.0.0.1 and a free port.

/**
 * Starts Vite on `root` with `plugins`; resolves with the server and its origin.
 * @param {string} root
 * @param {unknown[]} plugins
 * @returns {Promise<{ server: { close(): Promise<void> }, origin: string }>}
 */
export async function startDocsVite(root, plugins) {
  const vite = await import('vite8')
  const server = await vite.createServer({
    configFile: false,
    root,
    logLevel: 'silent',
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, watch: null },
    plugins,
  })
  server.httpServer.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.httpServer.once('listening', resolve))
  return { server, origin: `http://127.0.0.1:${server.httpServer.address().port}` }
}
