/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Astro',
  command: ['astro', 'dev', '--port', '{port}', '--host', '127.0.0.1'],
  hmrFile: 'src/pages/index.astro',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  missedAlternative: "fetch(new URL('/api/missed', Astro.url))",
}
