/**
 * Which endpoints under `/__cors-dev-proxy/` a proxy serves, as its assembly decided
 * (proxy/assemble-proxy.ts): each browser script is called with it as its one argument, so the
 * overlay and the inspector page never ask for an endpoint that does not exist. Types only, so
 * the served scripts stay self-contained.
 */
export interface ServedEndpoints {
  /**
   * The inspector's own: its script, `/exchanges`, `/events`, `/har`, `/explanations`,
   * `/replay/<id>` and `GET /mock` (`inspector` on). The page itself (`/`) and `/control` are
   * served whenever anything is, the page saying when the inspector is off.
   */
  readonly inspector: boolean
  /** The overlay's `/client.js` and `POST /explain` (`overlay` on). */
  readonly explain: boolean
  /** A route has live switches (control options or recordings): `/control` lists it. */
  readonly control: boolean
  /** A route has `mocks`, and the inspector is on: "Mock this answer" (`POST /mock`) writes. */
  readonly mocks: boolean
  /** A route has `openapi`: `GET /violations` lists the distinct violations its exchanges had. Absent otherwise. */
  readonly violations?: true
}
