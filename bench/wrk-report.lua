-- wrk script of the benchmark (wrk.mjs): shapes the request from the environment and, when wrk
-- stops, prints one machine-readable line with the counts and the latency percentiles in µs.
--   BENCH_METHOD       the request method (default GET)
--   BENCH_HEADERS      extra headers, `Name: value` separated by `|`
--   BENCH_BODY_BYTES   a request body of this many bytes (an upload), sent with its Content-Length
local method = os.getenv("BENCH_METHOD")
if method and method ~= "" then wrk.method = method end
local headers = os.getenv("BENCH_HEADERS")
if headers and headers ~= "" then
  for name, value in string.gmatch(headers, "([^:|]+):%s*([^|]*)") do
    wrk.headers[name] = value
  end
end
local bytes = tonumber(os.getenv("BENCH_BODY_BYTES") or "")
if bytes and bytes > 0 then
  wrk.body = string.rep("x", bytes)
  wrk.headers["Content-Type"] = "application/octet-stream"
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH-RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean))
end
