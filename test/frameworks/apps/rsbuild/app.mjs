/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Rsbuild',
  command: ['rsbuild', 'dev', '--port', '{port}', '--host', '127.0.0.1'],
  hmrFile: 'src/message.js',
  ssrPath: undefined,
}
