// The EU listener hands its requests to the main app, marked so that routes know where they came in.
import type { IncomingMessage } from 'node:http'

/** Marks a request that arrived on the EU listener. */
export const EU_LISTENER = Symbol.for('model-gateway-emulator.eu')

export function markEu(raw: IncomingMessage): void {
  ;(raw as IncomingMessage & { [EU_LISTENER]?: boolean })[EU_LISTENER] = true
}

export function isEuRequest(raw: IncomingMessage): boolean {
  return (raw as IncomingMessage & { [EU_LISTENER]?: boolean })[EU_LISTENER] === true
}
