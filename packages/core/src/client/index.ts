export type { JsonpOptions } from './jsonp.js'
export { jsonp, withCallbackParam } from './jsonp.js'
