// In-process events: the journal, state changes and clock moves, for the admin SSE stream and tests.
import { EventEmitter } from 'node:events'

export interface EmulatorEvents {
  'state.reset': { at: string }
  'clock.moved': { now: string; mode: string }
  'account.created': { id: string }
  'video.task': { id: string; state: string }
  'charge.created': { id: string; account_id: string }
  'charge.confirmed': { id: string; account_id: string }
  'charge.expired': { id: string; account_id: string }
  'callback.attempt': { delivery_id: string; task_id: string; status: number | null; outcome: 'delivered' | 'retry' | 'failed' }
}

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
