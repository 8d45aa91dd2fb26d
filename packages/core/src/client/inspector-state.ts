/*
 * What the inspector page's files share. Types only: the joined script gets nothing from here.
 */
import type { UnmatchedNote } from '../stand-ins/recordings/panel/unmatched-lines.js'
import type { Violation } from './violation-lines.js'

/** One recorded exchange, as `GET /__cors-dev-proxy/exchanges` and the `exchange` event give it. */
export interface View {
  id: number
  startedAt: string
  method: string
  url: string
  route: string
  upstreamUrl?: string
  clientProtocol: string
  upstreamProtocol?: string
  status: number
  ttfb?: number
  total?: number
  requestHeaders: [string, string][]
  responseHeaders: [string, string][]
  requestBytes: number
  responseBytes: number
  hooks: string[]
  cors: { outcome: string; rule: string; message?: string; fix?: string }
  requestBody?: string
  responseBody?: string
  bodiesTruncated: boolean
  aborted: boolean
  replayOf?: number
  replayedFrom?: string
  mockedFrom?: string
  /** `probe`: sent by the dev server itself (the overlay's explanation), not by the page. */
  ours?: string
  /** The recordings' 404 for a request none matched (`replay: 'only'`): its one line. */
  unmatched?: string
  /** The same as data: the differences from the closest recording, its file, the fixes. */
  unmatchedDiff?: UnmatchedNote
  /** How the exchange breaks its route's `openapi` document: absent without one, empty when clean. */
  violations?: Violation[]
  /** Why the route's document did not check this exchange. */
  contractSkipped?: string
}

/** One of the overlay's explanations of a failed call: the verdict, and what was probed for it. */
export interface Explained {
  method: string
  url: string
  explanation: { message?: string; cause: string; probe?: { text: string } }
}

/** The page's state: what it received, what the user chose, and the elements it fills. */
export interface InspectorState {
  /** The dev server's own paths, `/__cors-dev-proxy`. */
  readonly base: string
  readonly exchanges: View[]
  /** The routes with `mocks` ("Mock this answer" is offered on their exchanges). */
  readonly mockRoutes: Set<string>
  /** What "Mock this answer" said, per exchange. */
  readonly mocked: Map<number, string>
  /** What a replay answered, per exchange: the detail is rebuilt when the replay itself arrives. */
  readonly replays: Map<number, string>
  /** The overlay's explanations, newest first. */
  readonly explained: Explained[]
  selected: number | undefined
  readonly rows: HTMLTableSectionElement
  readonly detail: HTMLElement
  readonly routeFilter: HTMLSelectElement
  readonly statusFilter: HTMLSelectElement
  readonly textFilter: HTMLInputElement
  /** A route has `openapi`: the exchanges' checks are read again after they arrive. */
  readonly checks: boolean
  /** The next read of `/exchanges` for the OpenAPI checks that finished after their exchange arrived. */
  checkRefresh?: ReturnType<typeof setTimeout>
  /** Shows the list and the detail again (`renderInspector`, passed in so that no file imports it back). */
  readonly render: () => void
}
