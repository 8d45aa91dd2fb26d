/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Angular 22 (webpack browser builder)',
  command: ['ng', 'serve', '--port', '{port}', '--host', '127.0.0.1'],
  hmrFile: 'src/app/app.component.ts',
}
