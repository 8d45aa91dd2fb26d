// The playground page's helper API on the dev server (`/__playground/*`): the backends'
// addresses, their logs for one call, and the browser's verdict predicted by `checkCors`
// (the same engine as `cors-dev-proxy check`).
import { checkCors } from '@cors-dev-proxy/core'

/**
 * The addresses `start.mjs` publishes once every server listens (ports may be chosen at start).
 * @returns {{ backend: string, corsBackend: string, http: string, https: string }}
 */
export function playgroundEnv() {
  return {
    backend: process.env.PLAYGROUND_BACKEND ?? 'http://localhost:3001',
    corsBackend: process.env.PLAYGROUND_CORS_BACKEND ?? 'http://localhost:3002',
    http: process.env.PLAYGROUND_HTTP ?? 'http://localhost:5173',
    https: process.env.PLAYGROUND_HTTPS ?? 'https://localhost:5174',
  }
}

/**
 * A connect middleware for `/__playground/*`.
 * @param {() => ReturnType<typeof playgroundEnv>} getEnv
 */
export function createPlaygroundApi(getEnv) {
  return async function playgroundApi(req, res, next) {
    const url = new URL(req.url ?? '/', 'http://dev.invalid')
    if (!url.pathname.startsWith('/__playground/')) return next()
    const env = getEnv()
    try {
      const route = url.pathname.slice('/__playground/'.length)
      if (route === 'config') return send(res, 200, env)
      if (route === 'log') {
        const cid = encodeURIComponent(url.searchParams.get('cid') ?? '')
        const logs = await Promise.all(
          [env.backend, env.corsBackend].map((base) =>
            fetch(`${base}/__log?cid=${cid}`).then((r) => r.json()),
          ),
        )
        return send(res, 200, logs.flat())
      }
      if (route === 'explain' && req.method === 'POST') {
        const request = JSON.parse(await readBody(req))
        // A separate call id, so the prediction's own requests do not show up in the row's log.
        const checkUrl = request.url.replace(/cid=([^&]+)/, 'cid=$1-check')
        const verdict = await checkCors({ ...request, url: checkUrl })
        // Quote the message with the URL the page called, as the browser's console does.
        if (verdict.message) verdict.message = verdict.message.replace(checkUrl, request.url)
        return send(res, 200, verdict)
      }
      send(res, 404, { error: `unknown playground route ${url.pathname}` })
    } catch (error) {
      send(res, 502, { error: String(error?.message ?? error) })
    }
  }
}

function send(res, status, value) {
  res.statusCode = status
  res.setHeader('content-type', 'application/json')
  res.setHeader('cache-control', 'no-store')
  res.end(JSON.stringify(value))
}

async function readBody(req) {
  let body = ''
  for await (const chunk of req) body += chunk
  return body
}
