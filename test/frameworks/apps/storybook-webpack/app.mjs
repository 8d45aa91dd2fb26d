/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Storybook 10 with webpack',
  command: ['storybook', 'dev', '-p', '{port}', '--host', '127.0.0.1', '--ci', '--no-open'],
  // The story renders in its iframe; Storybook's manager page at '/' only frames it.
  pagePath: '/iframe.html?id=proxy--page&viewMode=story',
  hmrFile: 'src/message.js',
}
