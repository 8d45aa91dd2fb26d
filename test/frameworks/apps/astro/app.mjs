/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Astro',
  // --ignore-lock: Astro 7 refuses a second `astro dev` in a folder, and the misspelt-option
  // check starts one beside the first.
  command: ['astro', 'dev', '--port', '{port}', '--host', '127.0.0.1', '--ignore-lock'],
  hmrFile: 'src/pages/index.astro',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  missedAlternative: "fetch(new URL('/api/missed', Astro.url))",
}
