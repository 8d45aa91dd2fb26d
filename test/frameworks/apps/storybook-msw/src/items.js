import { createElement, useEffect, useState } from 'react'

/** The MSW story's component: what GET /api/items answers, one line per item. */
export function Items() {
  const [items, setItems] = useState(undefined)
  const [error, setError] = useState(undefined)
  useEffect(() => {
    fetch('/api/items')
      .then((response) => response.json())
      .then(setItems, (reason) => setError(String(reason)))
  }, [])
  if (error !== undefined) return createElement('p', { id: 'items', 'data-state': 'failed' }, error)
  if (items === undefined) return createElement('p', { id: 'items', 'data-state': 'loading' }, 'loading')
  // Anything but a list (the backend's echo, if the handlers did not answer) shown as it came.
  if (!Array.isArray(items))
    return createElement('p', { id: 'items', 'data-state': 'loaded' }, JSON.stringify(items))
  const lines = items.map((item) => createElement('li', { key: item.id }, `${item.id} ${item.name}`))
  return createElement('ul', { id: 'items', 'data-state': 'loaded' }, lines)
}
