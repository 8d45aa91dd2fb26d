// How every headless Chromium of the repository starts: the tests (browser.ts) and the
// benchmark (bench/browser.mjs). A `.mjs` so that the benchmark, plain JavaScript, can share it.

/** Debian's Chromium; override with `CHROMIUM_PATH` on machines that keep it elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Flags for a quiet, reproducible headless run: no sandbox (containers), no GPU, no
 * background traffic (updates, sync, component downloads) and no QUIC, so every request a
 * page makes goes over TCP and is one the page made.
 * @type {readonly string[]}
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
])

/**
 * Flags for a run that may use HTTP/3: {@link CHROMIUM_ARGS} without `--disable-quic`, QUIC on,
 * QUIC forced (no Alt-Svc needed, no fallback) for each of `forceQuicOn` (`host:port`), and the
 * certificate whose public key hashes to `spki` (base64 SHA-256) accepted, which QUIC needs for
 * a certificate not from a public root. Chromium only lets QUIC skip that check for the hosts
 * named in `--origin-to-force-quic-on`, so a lab that wants real Alt-Svc discovery and real
 * fallback forces QUIC on an unused port of the same host (`host:9`) and leaves the real port to
 * `Alt-Svc`.
 * @param {{ forceQuicOn: readonly string[], spki: string }} options
 * @returns {string[]}
 */
export function quicChromiumArgs({ forceQuicOn, spki }) {
  return [
    ...CHROMIUM_ARGS.filter((arg) => arg !== '--disable-quic'),
    '--enable-quic',
    `--origin-to-force-quic-on=${forceQuicOn.join(',')}`,
    `--ignore-certificate-errors-spki-list=${spki}`,
  ]
}
