/**
 * The declared response key an answer's status falls under (OpenAPI 3.0.3 section 4.7.16): the
 * exact code, then its range (`2XX`, any case), then `default`; undefined when none is declared.
 *
 * @example
 * responseKeyFor(204, ['200', '2XX', 'default']) // '2XX'
 */
export function responseKeyFor(status: number, keys: readonly string[]): string | undefined {
  const exact = String(status)
  const range = `${Math.floor(status / 100)}XX`
  return (
    keys.find((key) => key === exact) ??
    keys.find((key) => key.toUpperCase() === range) ??
    keys.find((key) => key === 'default')
  )
}
