import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/** One fenced code block of a docs page. */
export interface DocSample {
  /** The page, relative to `docs/` (`guide/vite.md`). */
  readonly page: string
  /** 1-based line of the opening fence. */
  readonly line: number
  /** The fence's language (`ts`, `js`, `sh`...). */
  readonly language: string
  /** The code between the fences. */
  readonly code: string
  /** VitePress's file title (`ts [vite.config.ts]`), when the fence has one. */
  readonly title: string | undefined
}

/** Every markdown page of the site, generated ones included, relative to `docs/`. */
export function docPages(docs: string): string[] {
  const pages: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'public') continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.md')) pages.push(relative(docs, path))
    }
  }
  walk(docs)
  return pages.sort()
}

/** The fenced code blocks of one page, with VitePress's `[title]` when a fence has one. */
export function samplesOf(docs: string, page: string): DocSample[] {
  const samples: DocSample[] = []
  const lines = readFileSync(join(docs, page), 'utf8').split('\n')
  let open: { line: number; language: string; title: string | undefined; code: string[] } | undefined
  lines.forEach((text, index) => {
    const fence = /^```(\S*)(?:.*\[([^\]]+)\])?/.exec(text)
    if (!fence) {
      open?.code.push(text)
      return
    }
    if (open) {
      samples.push({
        page,
        line: open.line,
        language: open.language,
        title: open.title,
        code: open.code.join('\n'),
      })
      open = undefined
    } else {
      open = { line: index + 1, language: (fence[1] ?? '').replace(/\{.*$/, ''), title: fence[2], code: [] }
    }
  })
  return samples
}
