import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream'

/**
 * `body` paced to `rate` bytes per second (a route's `throttle`, which the control step notes in
 * the request's exchange; each way: `paceBody` paces the answer), or `body` itself without one: slices
 * of a tenth of a second's worth, each when its time comes (the first at once). The pacer's
 * buffer is small, so `body` (the client's request) is read only as fast as the slices leave:
 * the client's upload is slowed by back-pressure, never buffered whole. Destroying the paced
 * stream (the target answered early, reset) destroys `body`, and an error of `body` (the client
 * left mid-upload) errors the paced stream, which aborts the upstream request.
 *
 * @example
 * dispatch({ method: 'POST', path, headers, body: pacedUpload(requestStream(req), exchange?.uploadPace) }, handler)
 */
export function pacedUpload(body: Readable, rate: number | undefined): Readable {
  if (rate === undefined) return body
  const paced = new UploadPacer(rate)
  pipeline(body, paced, () => {
    // Each side's end or error already reached the other; nothing is left to report here.
  })
  return paced
}

class UploadPacer extends Transform {
  readonly #rate: number
  readonly #slice: number
  #due = 0
  #timer: NodeJS.Timeout | undefined

  constructor(bytesPerSecond: number) {
    super()
    this.#rate = bytesPerSecond
    this.#slice = Math.max(1, Math.floor(bytesPerSecond / 10))
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#pushFrom(chunk, 0, callback)
  }

  /** Pushes `chunk` from `offset` a slice at a time, each when it is due; `callback` once all is out. */
  #pushFrom(chunk: Buffer, offset: number, callback: TransformCallback): void {
    let at = offset
    while (at < chunk.byteLength) {
      const now = performance.now()
      if (this.#due > now) {
        const from = at
        this.#timer = setTimeout(() => this.#pushFrom(chunk, from, callback), this.#due - now)
        return
      }
      const part = chunk.subarray(at, at + this.#slice)
      at += part.byteLength
      this.#due = Math.max(this.#due, now) + (part.byteLength * 1000) / this.#rate
      this.push(part)
    }
    callback()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.#timer)
    callback(error)
  }
}
