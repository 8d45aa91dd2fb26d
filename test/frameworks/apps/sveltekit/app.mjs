/** @type {import('../types').FrameworkApp} */
export default {
  name: 'SvelteKit',
  command: ['vite', 'dev', '--port', '{port}', '--strictPort', '--host', '127.0.0.1'],
  // Its front end's app for the 40 s answer (the Vite plugin's, under `vite dev`).
  slowAnswer: true,
  hmrFile: 'src/routes/+page.svelte',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  missedAlternative: "SvelteKit's event.fetch('/api/missed')",
}
