/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Rspack',
  command: ['rspack', 'serve', '--port', '{port}', '--host', '127.0.0.1'],
  // Its front end's app for the 40 s answer (webpack-dev-server's, the webpack adapter).
  slowAnswer: true,
  hmrFile: 'src/message.js',
  ssrPath: undefined,
}
