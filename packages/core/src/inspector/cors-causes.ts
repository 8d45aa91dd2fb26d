import type { CorsErrorKind } from '../browser/chromium-messages.js'

/** The cause of each CORS failure, in plain words. */
export const CORS_CAUSES: Readonly<Record<CorsErrorKind, string>> = {
  'missing-allow-origin':
    'The server answered, but without Access-Control-Allow-Origin: the browser received the response and kept it from your script, because the page and the API are on different origins.',
  'wildcard-origin-with-credentials':
    "The call sends credentials (cookies), and the server allows every origin with '*', which the browser refuses for credentialed calls.",
  'multiple-allow-origin-values':
    'The server sent Access-Control-Allow-Origin more than once (often a proxy and the backend both add it).',
  'invalid-allow-origin-value': 'The server sent an Access-Control-Allow-Origin value that is not an origin.',
  'allow-origin-mismatch': "The server allows another origin than this page's.",
  'invalid-allow-credentials':
    'The call sends credentials, and the server did not answer Access-Control-Allow-Credentials: true.',
  'preflight-invalid-status':
    'The browser first sent a preflight (OPTIONS) because of the method or headers, and the server did not answer it with a 2xx status.',
  'preflight-redirect':
    'The preflight (OPTIONS) was answered with a redirect, and a preflight never follows redirects.',
  'invalid-allow-methods':
    'The preflight answer has an Access-Control-Allow-Methods the browser cannot parse.',
  'invalid-allow-headers':
    'The preflight answer has an Access-Control-Allow-Headers the browser cannot parse.',
  'method-not-allowed':
    "The preflight answer does not list the call's method in Access-Control-Allow-Methods.",
  'header-not-allowed':
    'The preflight answer does not list a header the call sets in Access-Control-Allow-Headers.',
  'redirect-contains-credentials': 'The server redirected to a URL with user:password in it.',
  'cors-disabled-scheme': 'The server redirected to a URL whose scheme is not http or https.',
}
