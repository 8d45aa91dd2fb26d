import { message } from './message.js'

const paragraph = document.createElement('p')
paragraph.id = 'message'
document.body.append(paragraph)

function render() {
  paragraph.textContent = message
}
render()

// An edit of message.js is applied in place by Rspack's HMR runtime (the import is a live binding).
import.meta.webpackHot?.accept('./message.js', render)
