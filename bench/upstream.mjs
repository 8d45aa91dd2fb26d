// The backend every contender forwards to: a bare keep-alive Node server with a small JSON answer.
import http from 'node:http'

const body = JSON.stringify({ ok: true, items: [1, 2, 3], message: 'hello from the upstream' })
const server = http.createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-origin': req.headers.origin ?? '*' }).end()
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  console.log(`READY http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => process.exit(0))
