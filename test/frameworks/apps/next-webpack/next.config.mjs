import { withCorsDevProxy } from '@cors-dev-proxy/next'

// The pages shared with apps/next live outside this folder: webpack compiles them with
// `externalDir` (Turbopack does without).
export default withCorsDevProxy({ experimental: { externalDir: true } })
