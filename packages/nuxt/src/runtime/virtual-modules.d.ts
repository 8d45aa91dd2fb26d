// The server template the module adds (`addServerTemplate` in ../missed-fetch-routes.ts): a
// virtual module of Nitro's bundle, not a file, so TypeScript learns its shape here (the shape
// of `MissedFetchRoute`, written out: an ambient module cannot import a relative path).
declare module '#cors-dev-proxy/missed-fetch-routes' {
  /** The routes, as the proxy in front of Nitro resolved them. */
  export const routes: readonly { readonly prefix: string; readonly target: string }[]
}
