import angular from '../angular/app.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...angular,
  name: 'Angular 21 (application builder)',
  set: 'previous',
  base: 'angular',
  // The 40 s answer runs in apps/angular only.
  slowAnswer: undefined,
}
