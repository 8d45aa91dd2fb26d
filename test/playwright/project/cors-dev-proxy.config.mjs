// The project's configuration file, which config-file.spec.ts reads through `configFile: true`.
export default {
  routes: { '/api': { target: process.env.BACKEND_URL ?? 'http://127.0.0.1:2' } },
  recordings: { dir: process.env.RECORDINGS_DIR ?? 'recordings' },
}
