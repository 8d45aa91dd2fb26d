-- A browser's preflight for a PUT with JSON from the Vite dev origin.
wrk.method = "OPTIONS"
wrk.headers["Origin"] = "http://localhost:5173"
wrk.headers["Access-Control-Request-Method"] = "PUT"
wrk.headers["Access-Control-Request-Headers"] = "content-type,x-requested-with"
