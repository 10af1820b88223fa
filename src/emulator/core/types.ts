// The kernel's shared types, with nothing of Node: the clock's state and the events every area emits
// and hears. admin/types.ts re-exports them for the testing helper and the inspector (a browser build).

/** `system`: the clock follows real time (with an offset once set); `manual`: it moves only when told. */
export type ClockMode = 'system' | 'manual'

/** Where the clock stands, as the admin API and the event stream report it. */
export interface ClockState {
  now: string
  mode: ClockMode
}

/** The states of a video task, in the order a task goes through them (success or failed last). */
export const VIDEO_TASK_STATES = ['created', 'queueing', 'processing', 'success', 'failed'] as const
export type VideoTaskState = (typeof VIDEO_TASK_STATES)[number]

/** State changes, by event name, with what each one carries. */
export interface EmulatorEvents {
  'state.reset': { at: string }
  'clock.moved': ClockState
  'account.created': { id: string }
  'video.task': { id: string; state: VideoTaskState }
  'charge.created': { id: string; account_id: string }
  'charge.confirmed': { id: string; account_id: string }
  'charge.expired': { id: string; account_id: string }
  'callback.attempt': { delivery_id: string; task_id: string; status: number | null; outcome: 'delivered' | 'retry' | 'failed' }
  /** A change made through the admin API (its operation id, e.g. `admin.faults.create`). */
  'admin.changed': { operation: string }
}

/** What a request no recording answers gets (--on-miss): a generated answer, the upstream's, or the no-match error. */
export const ON_MISS = ['generate', 'upstream', 'error'] as const
export type OnMiss = (typeof ON_MISS)[number]
