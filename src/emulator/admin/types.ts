// The admin API's shapes (/_emulator/api), declared once: the routes' views are typed with them, and
// the testing helper and the inspector UI import them type-only. What a route takes is its own
// TypeBox schema (Static<>); what it answers is an interface here until the routes carry response
// schemas. This file imports only schema modules (TypeBox, nothing of Node), so the browser build
// type-checks it, and the published declarations need only the package's runtime dependencies.
import type { Static } from 'typebox'
import type { AccountCreditsBody, ClockAdvanceBody, CreateAccountBody, CreateKeyBody, UpdateAccountBody } from './admin.schemas.ts'
import type {
  CreateFaultBody,
  FaultAction as FaultActionSchema,
  FaultMatch as FaultMatchSchema,
  PresetBody,
  UpdateFaultBody,
} from '../faults/faults.schemas.ts'
import type { JournalListQuery } from '../journal/journal.schemas.ts'
import type { ActivityItem, ActivityQuery as ActivityQuerySchema } from '../modules/activity/activity.schemas.ts'
import type { ChargeObject, ChainId } from '../modules/credits/credits.schemas.ts'
import type { GuardrailObject, KeyAssignmentObject, MemberAssignmentObject } from '../modules/guardrails/guardrails.schemas.ts'
import type { KeyObject } from '../modules/keys/keys.schemas.ts'
import type { TaskState } from '../modules/video/video.schemas.ts'

/** Most answers: `{"data": ...}`. */
export interface Envelope<T> {
  data: T
}
/** Lists that page: the page and the count of all that match. */
export interface Page<T> {
  data: T[]
  total_count: number
}

// ---- Accounts and keys ---------------------------------------------------------------------------

export interface Member {
  id: string
  name: string
  email: string
  role: string
}

/** GET /accounts, PATCH /accounts/:id, PUT /accounts/:id/credits. */
export interface Account {
  id: string
  name: string
  credits_usd: number
  spent_usd: number
  balance_usd: number
  workspace_id: string
  created_at: string
  ignored_providers: string[]
  zdr_only: boolean
}

/** GET /accounts/:id: the account with its members. */
export interface AccountDetail extends Account {
  members: Member[]
}

/** POST /accounts (201): the new account with its two starter keys' tokens. */
export interface CreatedAccount {
  id: string
  name: string
  management_key: string
  standard_key: string
  credits_usd: number
  workspace_id: string
  members: Member[]
}

export type CreateAccountInput = Static<typeof CreateAccountBody>
export type UpdateAccountInput = Static<typeof UpdateAccountBody>
export type AccountCreditsInput = Static<typeof AccountCreditsBody>

export type KeyKind = 'management' | 'standard'
/** GET /accounts/:id/keys: the gateway's key object, with its kind and its token. */
export type AdminKey = Static<typeof KeyObject> & { kind: KeyKind; key: string | null }
export type CreateKeyInput = Static<typeof CreateKeyBody>

// ---- Clock ---------------------------------------------------------------------------------------

export type ClockMode = 'system' | 'manual'
/** GET /clock and every clock move. */
export interface ClockState {
  now: string
  mode: ClockMode
}
export type ClockAdvanceInput = Static<typeof ClockAdvanceBody>

// ---- Faults --------------------------------------------------------------------------------------

export type FaultMatch = Static<typeof FaultMatchSchema>
export type FaultAction = Static<typeof FaultActionSchema>
/** POST /faults. */
export type FaultRuleInput = Static<typeof CreateFaultBody>
/** PATCH /faults/:id. */
export type FaultRulePatch = Static<typeof UpdateFaultBody>
/** POST /faults/presets/:preset. */
export type FaultPresetInput = Static<typeof PresetBody>

/** A stored rule, with its counts and a one-sentence explanation. */
export interface FaultRule {
  id: string
  name: string | null
  enabled: boolean
  match: FaultMatch
  action: FaultAction
  probability: number
  remaining: number | null
  expires_at: string | null
  hits: number
  evaluations: number
  explanation: string
  created_at: string
  updated_at: string | null
}

/** GET /faults/presets: the common faults, one call each. */
export interface FaultPreset {
  id: string
  /** The name a rule made from it gets. */
  name: string
  /** A short label for a button. */
  label: string
  description: string
  /** One of the few offered first (402, 429, 503). */
  common: boolean
  action: FaultAction
}

// ---- Journal -------------------------------------------------------------------------------------

export type JournalQuery = Static<typeof JournalListQuery>

export interface JournalEntry {
  id: number
  /** Virtual time the request arrived. */
  time: string
  /** Real time, for HAR and for reading next to other logs. */
  wall_time: string
  operation: string
  method: string
  path: string
  query: string
  status: number
  duration_ms: number
  account_id: string | null
  key_hash: string | null
  fault: string | null
  /** True when the connection was closed before an answer (a dropped-connection fault). */
  aborted: boolean
  request: { headers: Record<string, string>; body: string | null; body_bytes: number }
  response: { headers: Record<string, string>; body: string | null; body_bytes: number }
  effects: { usage: number[]; tasks: string[]; charges: string[]; callbacks: string[] }
}

/** A journal entry without its headers and bodies: what the event stream sends. */
export type JournalSummary = Omit<JournalEntry, 'request' | 'response'>

// ---- Activity and guardrails ---------------------------------------------------------------------

export type ActivityQuery = Static<typeof ActivityQuerySchema>

/** One row of an activity report (GET /api/v1/activity, and the admin read of any account's). */
export type ActivityRow = ActivityItem

/** A guardrail as the gateway shows it (fields a client stored beyond these are kept as sent). */
export type Guardrail = GuardrailObject
export type GuardrailKeyAssignment = KeyAssignmentObject
export type GuardrailMemberAssignment = MemberAssignmentObject

/** GET /accounts/:id/guardrails: each guardrail with what is assigned to it. */
export type AccountGuardrail = Guardrail & {
  keys: GuardrailKeyAssignment[]
  members: GuardrailMemberAssignment[]
}

// ---- Charges, video tasks, callbacks -------------------------------------------------------------

export type ChargeStatus = 'pending' | 'confirmed' | 'expired'
/** GET /charges: the gateway's charge with what the emulator knows about it. */
export type Charge = Static<typeof ChargeObject> & {
  account_id: string
  amount_usd: number
  chain_id: ChainId | number
  sender: string
  status: ChargeStatus
  confirmed_at: string | null
}

export type VideoTaskState = TaskState
export type VideoTaskOutcome = 'success' | 'failed' | 'stuck'

export interface VideoCreation {
  id: string
  url: string
  cover_url: string
  watermarked_url: string
  video: { duration: number; fps: number; resolution: { width: number; height: number } }
}

/** GET /video/tasks: the router's task view, with its request, planned outcome and timeline. */
export interface VideoTask {
  id: string
  type?: string
  model?: string
  template?: string
  state: VideoTaskState
  err_code: string
  credits: number
  payload: string
  bgm: boolean | undefined
  off_peak: boolean
  progress: number
  creations: VideoCreation[]
  created_at: string
  account_id: string
  key_hash: string | null
  operation: string
  request: unknown
  callback_url: string | null
  planned_outcome: VideoTaskOutcome
  next_transition_at: string | null
  timeline: Array<{ state: VideoTaskState; at: string }>
}

export type CallbackDeliveryStatus = 'pending' | 'delivered' | 'failed'

/** GET /callbacks: a delivery of a task's callback, with every attempt. */
export interface CallbackDelivery {
  id: string
  task_id: string
  account_id: string
  url: string
  /** The task state the body reports. */
  state: string
  status: CallbackDeliveryStatus
  attempt_count: number
  max_attempts: number
  next_attempt_at: string | null
  created_at: string
  delivered_at: string | null
  /** The JSON body, exactly as sent. */
  body: string
  attempts: Array<{ attempt: number; at: string; wall_at: string; status: number | null; duration_ms: number; error: string | null }>
}

// ---- The event stream (GET /events) --------------------------------------------------------------

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

/**
 * Every event the stream sends: the state changes, `journal` (a JournalSummary) for each new journal
 * entry, and `reset` when a reconnect asked for events older than the stream still holds (the
 * client should read everything again).
 */
export interface StreamEvents extends EmulatorEvents {
  journal: JournalSummary
  reset: { reason: 'too-old' | 'unknown-id'; last_event_id: number }
}
