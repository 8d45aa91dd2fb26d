/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Bun 1.4',
  command: ['bun', 'server.mjs', '{port}'],
  // A server without a bundler: no HMR, no SSR, no overlay client or inspector.
  overlay: false,
}
