/** @type {import('../types').FrameworkApp} */
export default {
  name: 'Deno 2.9',
  // As docs/frameworks/fetch-handler.md runs it: --unstable-no-legacy-abort, so that Deno aborts
  // request.signal only when the client leaves and prints no warning about its legacy behaviour.
  command: [
    'deno',
    'run',
    '--allow-all',
    '--node-modules-dir=manual',
    '--unstable-no-legacy-abort',
    'server.mjs',
    '{port}',
  ],
  // A server without a bundler: no HMR, no SSR, no overlay client or inspector.
  overlay: false,
}
