// In-process events: the journal, state changes and clock moves, for the admin SSE stream and tests.
// What each event carries is declared in core/types.ts.
import { EventEmitter } from 'node:events'
import type { EmulatorEvents } from './types.ts'

export type { EmulatorEvents }

export class EmulatorEventBus {
  private readonly emitter = new EventEmitter()

  constructor() {
    this.emitter.setMaxListeners(0)
  }

  emit<K extends keyof EmulatorEvents>(type: K, payload: EmulatorEvents[K]): void {
    this.emitter.emit(type, payload)
    this.emitter.emit('*', { type, payload })
  }

  on<K extends keyof EmulatorEvents>(type: K, listener: (payload: EmulatorEvents[K]) => void): () => void {
    this.emitter.on(type, listener)
    return () => this.emitter.off(type, listener)
  }

  onAny(listener: (event: { type: keyof EmulatorEvents; payload: unknown }) => void): () => void {
    this.emitter.on('*', listener)
    return () => this.emitter.off('*', listener)
  }
}
