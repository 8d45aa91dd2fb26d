/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Hono on Node',
  command: ['node', 'server.mjs', '{port}'],
  // A server without a bundler: no HMR, no SSR, no overlay client or inspector.
  overlay: false,
  // Its front end's app for the 40 s answer (the Fetch handler's).
  slowAnswer: true,
}
