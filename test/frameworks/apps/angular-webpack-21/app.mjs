import angular from '../angular-webpack/app.mjs'

/** @type {import('../types').FrameworkApp} */
export default {
  ...angular,
  name: 'Angular 21 (webpack browser builder)',
  set: 'previous',
  base: 'angular-webpack',
}
