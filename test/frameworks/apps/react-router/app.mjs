/** @type {import('../types').FrameworkApp} */
export default {
  name: 'React Router',
  command: ['react-router', 'dev', '--port', '{port}', '--strictPort', '--host', '127.0.0.1'],
  hmrFile: 'app/routes/home.jsx',
  ssrPath: '/ssr',
  missedPath: '/ssr-missed',
  missedAlternative: "fetch(new URL('/api/missed', request.url)) in a loader",
}
