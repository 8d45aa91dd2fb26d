/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Deno 2.9',
  command: ['deno', 'run', '--allow-all', '--node-modules-dir=manual', 'server.mjs', '{port}'],
  // A server without a bundler: no HMR, no SSR, no overlay client or inspector.
  overlay: false,
}
