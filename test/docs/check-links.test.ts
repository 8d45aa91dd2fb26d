import { describe, expect, it } from 'vitest'
import { findDeadLinks, pageKey } from '../../docs/scripts/check-links.mjs'

// `pnpm docs:build` ends with docs/scripts/check-links.mjs over the built HTML: VitePress itself
// fails on a markdown link to a missing page, but not on a missing anchor, nor on a sidebar or
// nav entry that leads nowhere. These cases are what the script must catch, and let pass.

const page = (body: string) => `<html><body>${body}</body></html>`

describe('the docs link check', () => {
  it('names pages as VitePress links them (clean URLs, folder indexes)', () => {
    expect(pageKey('/guide/vite.html')).toBe('/guide/vite')
    expect(pageKey('/frameworks/index.html')).toBe('/frameworks/')
    expect(pageKey('/index.html')).toBe('/')
  })

  it('passes links to existing pages and anchors, external links and files', () => {
    const pages = new Map([
      [
        '/',
        page(
          '<a href="/guide/vite">Vite</a><a href="/guide/vite#more">more</a><a href="https://vitejs.dev/#x">x</a>',
        ),
      ],
      [
        '/guide/vite',
        page(
          '<h2 id="more">More</h2><a href="#more">#</a><a href="../frameworks/#suite">suite</a><img src="/playground.png"><a href="/playground.png">png</a>',
        ),
      ],
      ['/frameworks/', page('<h2 id="suite">Suite</h2><a href="/">home</a>')],
    ])
    expect(findDeadLinks(pages)).toEqual([])
  })

  it('fails a link to a missing page, a missing anchor, or a missing anchor on the same page', () => {
    const pages = new Map([
      ['/', page('<a class="VPLink" href="/guide/gone">gone</a><a href="/guide/vite#nowhere">x</a>')],
      ['/guide/vite', page('<h2 id="more">More</h2><a href="#mroe">typo</a>')],
    ])
    expect(findDeadLinks(pages)).toEqual([
      { page: '/', href: '/guide/gone', reason: 'no page /guide/gone' },
      { page: '/', href: '/guide/vite#nowhere', reason: 'no #nowhere on /guide/vite' },
      { page: '/guide/vite', href: '#mroe', reason: 'no #mroe on /guide/vite' },
    ])
  })

  it('reads encoded anchors and entities as the browser does', () => {
    const pages = new Map([
      [
        '/a',
        page(
          '<h2 id="chromium-s-rules">R</h2><a href="/a#chromium-s-rules">r</a><a href="/a?x=1&amp;y=2#chromium-s-rules">q</a>',
        ),
      ],
    ])
    expect(findDeadLinks(pages)).toEqual([])
  })
})
