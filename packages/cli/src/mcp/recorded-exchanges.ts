import type { ExchangeView } from '@cors-dev-proxy/core/adapter'
import { type InspectorClient, InspectorError } from './inspector-client.js'

/**
 * The recorded exchanges, oldest first; the event stream is (re)opened so the next ones keep their bodies.
 *
 * @example
 * const exchanges = await fetchExchanges(inspector)
 */
export async function fetchExchanges(inspector: InspectorClient): Promise<ExchangeView[]> {
  void inspector.listen()
  return (await inspector.call('GET', '/exchanges')) as ExchangeView[]
}

/**
 * One exchange by id, or an {@link InspectorError} saying which ids the inspector still holds.
 *
 * @example
 * const view = await fetchExchange(inspector, 12)
 */
export async function fetchExchange(inspector: InspectorClient, id: number): Promise<ExchangeView> {
  const exchanges = await fetchExchanges(inspector)
  const view = exchanges.find((candidate) => candidate.id === id)
  if (view === undefined) {
    const range =
      exchanges.length === 0
        ? 'it holds none yet'
        : `it holds #${exchanges[0]?.id} to #${exchanges.at(-1)?.id}`
    throw new InspectorError(
      `no exchange #${id}: the inspector keeps the most recent ones only (${range}); list_exchanges shows them`,
    )
  }
  return view
}
