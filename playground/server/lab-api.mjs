// The lab page's API on the dev server (`/__lab/*`): runs the protocol lab (one run at a time)
// and keeps the last results for a reload.

/**
 * A connect middleware for `/__lab/run` (POST; `?size=full` for five runs, else one) and `/__lab/results`.
 * @param {{ log?: (line: string) => void }} [options]
 */
export function createLabApi({ log = (line) => console.log(line) } = {}) {
  let running
  let last
  return async function labApi(req, res, next) {
    const url = new URL(req.url ?? '/', 'http://dev.invalid')
    if (!url.pathname.startsWith('/__lab/')) return next()
    if (url.pathname === '/__lab/results')
      return last ? send(res, 200, last) : send(res, 404, { error: 'not run yet' })
    if (url.pathname !== '/__lab/run' || req.method !== 'POST')
      return send(res, 404, { error: `unknown lab route ${url.pathname}` })
    const size = url.searchParams.get('size') === 'full' ? 'full' : 'page'
    try {
      // Loaded on first use: the lab needs the built CLI, and the playground page does not.
      const { runLab } = await import('../lab/run-lab.mjs')
      running ??= runLab({ size, log }).finally(() => {
        running = undefined
      })
      last = await running
      send(res, 200, last)
    } catch (error) {
      send(res, 500, { error: String(error?.message ?? error) })
    }
  }
}

function send(res, status, value) {
  res.statusCode = status
  res.setHeader('content-type', 'application/json')
  res.setHeader('cache-control', 'no-store')
  res.end(JSON.stringify(value))
}
