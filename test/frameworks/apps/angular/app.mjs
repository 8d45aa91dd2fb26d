import { CHECKS } from './checks.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Angular 22 (application builder)',
  command: ['ng', 'serve', '--port', '{port}', '--host', '127.0.0.1'],
  hmrFile: 'src/app/app.component.ts',
  // A proxy.conf.json moved to angularProxy: its entries are in legacy-proxy-conf.mjs.
  // Its front end's app for the 40 s answer (angularProxy under ng serve).
  slowAnswer: true,
  checks: CHECKS,
}
