/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Rspack',
  command: ['rspack', 'serve', '--port', '{port}', '--host', '127.0.0.1'],
  hmrFile: 'src/message.js',
  ssrPath: undefined,
}
