/*
 * A called path with its ids replaced, for the violation of a call no operation describes: a
 * REST API's `GET /users/1`, `/users/2`, … are one missing operation, not one per id, so the
 * overlay shows one card and the log one line (the violation log keeps distinct violations).
 */

/** A number, a UUID, or a long hexadecimal id (a MongoDB ObjectId, a hash): what a path template's `{id}` stands for. */
const ID_SEGMENT = /^(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{12,})$/i

/**
 * `pathname` with each segment that is an id written `{id}`; the path itself when none is.
 *
 * @example
 * pathShape('/v1/users/42/orders/5f1d7a2b9c8e4b0012345678') // '/v1/users/{id}/orders/{id}'
 */
export function pathShape(pathname: string): string {
  const segments = pathname.split('/')
  let changed = false
  for (let index = 0; index < segments.length; index += 1) {
    if (ID_SEGMENT.test(segments[index] as string)) {
      segments[index] = '{id}'
      changed = true
    }
  }
  return changed ? segments.join('/') : pathname
}
