import { CorsDevProxyError } from '@cors-dev-proxy/core'

/**
 * Where the exported nginx server block or Caddy site listens, as the `nginx` and `caddy`
 * commands take it (`--listen`, `--server-name`).
 *
 * @example
 * renderNginx(resolved, { listen: '127.0.0.1:8080', serverName: 'api.example.com' })
 */
export interface ExportOptions {
  /**
   * `ADDRESS:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`) or only a port (`8080`,
   * every address).
   * @default '8080' (the commands' default)
   */
  listen: string
  /**
   * The host names the site answers for, separated by spaces or commas; `undefined` answers
   * any `Host` (nginx's default server for the address, a Caddy site without a host).
   * @default undefined
   */
  serverName: string | undefined
}

/** The `--listen` value the commands use when none is given. */
export const DEFAULT_LISTEN = '8080'

/** `ExportOptions.listen`, read. */
export interface ListenAddress {
  /** The address to bind (`127.0.0.1`, `[::1]`, `localhost`); `undefined`: every address. */
  readonly address: string | undefined
  readonly port: number
}

/** An address nginx and Caddy both take as written: a bracketed IPv6, or a name or IPv4 without spaces or syntax. */
const ADDRESS = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+|\*)$/
const SERVER_NAME = /^[A-Za-z0-9*_.-]+$/

/**
 * Reads `ExportOptions.listen`. Throws `CorsDevProxyError` (INVALID_OPTION, naming `--listen`)
 * for anything else than a port 1–65535 with an optional address.
 *
 * @example
 * parseListen('127.0.0.1:8080') // { address: '127.0.0.1', port: 8080 }
 * parseListen('8080')           // { address: undefined, port: 8080 }
 */
export function parseListen(listen: string): ListenAddress {
  const match = /^(?:(.*):)?(\d{1,5})$/.exec(listen.trim())
  const port = Number(match?.[2])
  const address = match?.[1]
  if (match === null || port < 1 || port > 65_535 || (address !== undefined && !ADDRESS.test(address))) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      '--listen',
      `must be a port (1-65535) or ADDRESS:PORT, got ${JSON.stringify(listen)}`,
      '--listen 127.0.0.1:8080',
    )
  }
  return { address: address === '*' ? undefined : address, port }
}

/**
 * Reads `ExportOptions.serverName` into its names. Throws `CorsDevProxyError` (INVALID_OPTION,
 * naming `--server-name`) for a name with anything but letters, digits, `.`, `-`, `_` and `*`,
 * which would otherwise end up as configuration syntax.
 *
 * @example
 * parseServerNames('example.com, www.example.com') // ['example.com', 'www.example.com']
 */
export function parseServerNames(serverName: string | undefined): string[] {
  if (serverName === undefined) return []
  const names = serverName.split(/[\s,]+/).filter((name) => name !== '')
  const bad = names.find((name) => !SERVER_NAME.test(name))
  if (names.length === 0 || bad !== undefined) {
    throw new CorsDevProxyError(
      'INVALID_OPTION',
      '--server-name',
      `must be host names separated by spaces or commas, got ${JSON.stringify(serverName)}`,
      '--server-name api.example.com',
    )
  }
  return names
}
