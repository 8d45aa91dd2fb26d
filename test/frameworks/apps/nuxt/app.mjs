/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Nuxt',
  command: ['nuxt', 'dev', '--port', '{port}', '--host', '127.0.0.1'],
  hmrFile: 'app/pages/index.vue',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
}
