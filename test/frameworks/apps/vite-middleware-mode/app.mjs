/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Vite middleware mode',
  command: ['node', 'server.mjs', '{port}'],
  hmrFile: 'src/message.js',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
}
