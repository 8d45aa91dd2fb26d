/**
 * Where something is noted per request while it is handled (the forwarder's upstream URL and
 * response-head time): a `WeakMap`, or the inspector's recording of the request, which writes
 * into its record (cheaper than a WeakMap entry per request).
 */
export interface RequestNotes<V> {
  set(req: object, value: V): unknown
  get(req: object): V | undefined
}
