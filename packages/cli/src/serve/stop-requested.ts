/**
 * Resolves with the first SIGINT or SIGTERM, so a server can stop cleanly; a second signal
 * while it stops exits at once (130 or 143, the shell's codes for those signals).
 *
 * @example
 * const signal = await stopRequested()
 * await server.close()
 */
export function stopRequested(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      process.once('SIGINT', () => process.exit(130))
      process.once('SIGTERM', () => process.exit(143))
      resolve(signal)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
}
