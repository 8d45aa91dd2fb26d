/*
 * The overlay element: one card per distinct failure, in its own shadow DOM.
 * A panel in a corner, not a backdrop: the page stays usable (a page that tests failing calls
 * on purpose keeps working), and Vite's error overlay (z-index 99999) stays above it. At most
 * a third of the viewport high (the cards scroll inside it), the newest card first and open,
 * the older ones one line each: several failures never cover the page, nor push the newest
 * out of sight.
 */
/** The overlay's shadow style. */
const OVERLAY_STYLE = `
:host { position: fixed; right: 16px; bottom: 16px; z-index: 99990; width: min(720px, calc(100vw - 32px));
  max-height: 33vh; display: flex; font: 14px/1.5 ui-sans-serif, system-ui, sans-serif; border-radius: 8px;
  box-shadow: 0 10px 40px rgba(0,0,0,.5); overflow: hidden; }
.panel { background: #181818; color: #e8e8e8; border-top: 4px solid #e8a33d; padding: 8px 14px 8px; display: flex;
  flex-direction: column; min-height: 0; width: 100%; box-sizing: border-box; }
h1 { font-size: 14px; margin: 0 0 4px; color: #f3c26b; display: flex; justify-content: space-between; gap: 12px; flex: none; }
.cards { overflow-y: auto; min-height: 0; flex: 1 1 auto; overscroll-behavior: contain; }
.card { border: 1px solid #333; border-radius: 6px; margin: 6px 0; background: #202020; }
.card > summary { cursor: pointer; padding: 4px 10px; font-family: ui-monospace, monospace; font-size: 12px; color: #c9c9c9;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.card[open] > summary { color: #f3c26b; }
.body { padding: 0 10px 8px; }
.message { font-family: ui-monospace, monospace; font-size: 13px; color: #ff7b72; white-space: pre-wrap; word-break: break-word; }
.cause { margin: 6px 0; }
.diff { font-family: ui-monospace, monospace; font-size: 13px; margin: 2px 0; word-break: break-word; }
.fix { font-family: ui-monospace, monospace; font-size: 13px; background: #111; padding: 6px 10px; border-radius: 4px; white-space: pre-wrap; margin-top: 2px; }
.count { background: #e8a33d; color: #111; border-radius: 10px; padding: 0 8px; font-size: 12px; margin-right: 6px; }
.row { display: flex; gap: 8px; margin-top: 6px; align-items: center; flex-wrap: wrap; }
button, a { font: inherit; font-size: 13px; color: #9cdcfe; background: #2a2a2a; border: 1px solid #444; border-radius: 4px; padding: 2px 10px; cursor: pointer; text-decoration: none; }
.muted { color: #9a9a9a; font-size: 12px; }
.foot { flex: none; margin-top: 4px; }`

/**
 * Defines `<cors-dev-proxy-overlay>` (once: another copy of the client may have), and closes it
 * on Esc or on a click outside its panel.
 *
 * @example
 * defineOverlayElement('/__cors-dev-proxy')
 */
export function defineOverlayElement(base: string): void {
  class CorsDevProxyOverlay extends HTMLElement {
    constructor() {
      super()
      const root = this.attachShadow({ mode: 'open' })
      root.innerHTML = `<style>${OVERLAY_STYLE}</style><div class="panel" part="panel"><h1><span class="title">cors-dev-proxy: a call to another origin failed</span><button class="close" title="Close (Esc)">✕</button></h1><div class="cards"></div><div class="muted foot">Click outside or press Esc to close · <a href="${base}/" target="_blank">open the inspector</a> · <code>overlay: false</code> turns this off</div></div>`
      root.querySelector('.close')?.addEventListener('click', () => this.remove())
    }
  }
  if (customElements.get('cors-dev-proxy-overlay') === undefined) {
    customElements.define('cors-dev-proxy-overlay', CorsDevProxyOverlay)
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') document.querySelector('cors-dev-proxy-overlay')?.remove()
  })
  // A click outside the panel dismisses it (the click still does what it does).
  document.addEventListener(
    'pointerdown',
    (event) => {
      const overlay = document.querySelector('cors-dev-proxy-overlay')
      if (overlay !== null && !event.composedPath().includes(overlay)) overlay.remove()
    },
    true,
  )
}
