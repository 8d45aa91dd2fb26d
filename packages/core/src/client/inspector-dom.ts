/** The first element matching a selector (the page's own, which are always there). */
export const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T

/** An element with an optional text and class. */
export const el = (tag: string, text?: string, className?: string): HTMLElement => {
  const element = document.createElement(tag)
  if (text !== undefined) element.textContent = text
  if (className !== undefined) element.className = className
  return element
}

/** A duration in milliseconds, `–` when unknown. */
export const ms = (value: number | undefined) => (value === undefined ? '–' : `${value} ms`)
