import { createElement } from 'react'
import { message } from './message.js'

/** The story's component: the page the suite drives, in the story's iframe. */
export function Probe() {
  return createElement('p', { id: 'message' }, message)
}
