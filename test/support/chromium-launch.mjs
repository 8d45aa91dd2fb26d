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
