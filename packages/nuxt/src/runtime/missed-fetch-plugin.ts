// The Nitro plugin file the module adds in `nuxt dev` (addServerPlugin); Nitro bundles it into its
// dev worker. It imports nothing of Nitro's: a Nitro plugin is a function of the app
// (`defineNitroPlugin` returns its argument), so this file needs neither `nitropack/runtime` nor
// `#imports`, and the package no Nitro dependency. The routes come from the module's server
// template, a virtual module Nitro resolves when it bundles this file.
import { routes } from '#cors-dev-proxy/missed-fetch-routes'
import { missedFetchPlugin } from './missed-fetch-hint.js'

/** Explains, in the terminal, a server-side `$fetch` of a route's path that went to Nitro. */
export default missedFetchPlugin(routes, (line) => console.warn(line))
