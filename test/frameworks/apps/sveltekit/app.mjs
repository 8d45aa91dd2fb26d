/** @type {import('../types').FrameworkApp} */
export default {
  name: 'SvelteKit',
  command: ['vite', 'dev', '--port', '{port}', '--strictPort', '--host', '127.0.0.1'],
  hmrFile: 'src/routes/+page.svelte',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  missedAlternative: "SvelteKit's event.fetch('/api/missed')",
}
