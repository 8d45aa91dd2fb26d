export type { CallExplanation, Certainty, FailedCall, ProbeSummary } from '../client/call-types.js'

/** The route to add and the call to write, shared by every kind of explanation. */
export interface RouteFix {
  readonly route: string
  readonly call: string
  readonly routeExists: boolean
  /** Where the route goes, when not in the front end's own routes (see `CallExplanation.routeWhere`). */
  readonly routeWhere?: string
}
