import { Dispatcher } from 'undici'

/**
 * A dispatcher in front of undici dispatchers it owns: subclasses route `dispatch` and say how to
 * close and destroy what they own; this class gives those two undici's overloads (a promise, or
 * a callback, with or without an error).
 *
 * @example
 * class OneOrigin extends WrappingDispatcher {
 *   override dispatch(options, handler) { return this.agent.dispatch({ ...options, origin }, handler) }
 *   protected closeOwned() { return this.agent.close() }
 *   protected destroyOwned(error: Error | null) { return this.agent.destroy(error) }
 * }
 */
export abstract class WrappingDispatcher extends Dispatcher {
  /** Closes the dispatchers this one owns, once their requests are done. */
  protected abstract closeOwned(): Promise<void>
  /** Destroys the dispatchers this one owns, aborting their requests with `error`. */
  protected abstract destroyOwned(error: Error | null): Promise<void>

  override close(): Promise<void>
  override close(callback: () => void): void
  override close(callback?: () => void): Promise<void> | void {
    const closing = this.closeOwned()
    if (callback === undefined) return closing
    closing.then(callback, callback)
  }

  override destroy(): Promise<void>
  override destroy(error: Error | null): Promise<void>
  override destroy(callback: () => void): void
  override destroy(error: Error | null, callback: () => void): void
  override destroy(...args: unknown[]): Promise<void> | void {
    const callback = args.find((arg): arg is () => void => typeof arg === 'function')
    const error = args.find((arg): arg is Error => arg instanceof Error) ?? null
    const destroying = this.destroyOwned(error)
    if (callback === undefined) return destroying
    destroying.then(callback, callback)
  }
}
