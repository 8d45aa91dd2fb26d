import { message } from './message.js'

document.querySelector('#message').textContent = message
