// What the admin API answers (/_emulator/api), as TypeBox schemas: the routes serialize and document
// their answers with them, and admin/types.ts derives the types the testing helper and the inspector
// import. TypeBox only (nothing of Node), so the browser build type-checks it.
//
// The admin shapes are a stable contract (design section 3) that only grows: every object is open
// (`additionalProperties: true`), so a field added to a view is served even before its schema says so,
// never silently dropped by the serializer.
import { Type, type TProperties, type TSchema } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../http/schemas.ts'
import { KeyObject } from '../modules/keys/keys.schemas.ts'
import { ChargeObject } from '../modules/credits/credits.schemas.ts'
import { GuardrailObject, KeyAssignmentObject, MemberAssignmentObject } from '../modules/guardrails/guardrails.schemas.ts'
import { TaskState } from '../modules/video/video.schemas.ts'
import { FaultAction, FaultMatch } from '../faults/faults.schemas.ts'
import { ChatFixtureAnswer, ChatFixtureMatch } from '../modules/chat/chat-fixtures.schemas.ts'

/** An object whose listed fields are documented and typed, and which may carry more. */
export const Shape = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description && { description }) })

const Iso = (description?: string) => Type.String({ format: 'date-time', ...(description && { description }) })

/** The answers of a route: `{"data": ...}` on success, the main API's error envelope otherwise. */
export const data = <T extends TSchema>(schema: T, status: 200 | 201 = 200) => ({ [status]: Shape({ data: schema }), '4xx': ErrorEnvelope })
/** `{"data": [...], "total_count": n}`. */
export const page = <T extends TSchema>(item: T) => ({ 200: Shape({ data: Type.Array(item), total_count: Type.Integer() }), '4xx': ErrorEnvelope })
/** Any JSON object: documents (state, catalog, HAR) whose shape has its own reference. */
export const OpenObject = (description: string) => Type.Object({}, { additionalProperties: true, description })

export const Deleted = Shape({ deleted: Type.Boolean() })

// ---- Accounts and keys ---------------------------------------------------------------------------

export const Member = Shape({ id: Type.String(), name: Type.String(), email: Type.String(), role: Type.String() })

export const Account = Shape({
  id: Type.String(),
  name: Type.String(),
  credits_usd: Type.Number({ description: 'Credits bought (USD)' }),
  spent_usd: Type.Number({ description: 'Spent so far (USD)' }),
  balance_usd: Type.Number({ description: 'credits_usd - spent_usd; negative when spend ran past the credits' }),
  workspace_id: Type.String(),
  created_at: Iso(),
  ignored_providers: Type.Array(Type.String()),
  zdr_only: Type.Boolean(),
})

export const AccountDetail = Shape({ ...Account.properties, members: Type.Array(Member) })

export const CreatedAccount = Shape({
  id: Type.String(),
  name: Type.String(),
  management_key: Type.String({ description: 'The new management key (sk-gw-v1-...)' }),
  standard_key: Type.String({ description: 'The new standard key (sk-gw-v1-...)' }),
  credits_usd: Type.Number(),
  workspace_id: Type.String(),
  members: Type.Array(Member),
})

export const KeyKind = StringEnum(['management', 'standard'] as const)
export const AdminKey = Shape({
  ...KeyObject.properties,
  kind: KeyKind,
  key: Nullable(Type.String({ description: 'The token (kept for keys the emulator made)' })),
})

export const ClockState = Shape({ now: Iso('The virtual now'), mode: StringEnum(['system', 'manual'] as const) })

export const EmulatorState = Shape({
  version: Type.String(),
  seed: Type.Integer(),
  database: Type.String(),
  clock: ClockState,
  accounts: Type.Array(Account),
})

// ---- Faults --------------------------------------------------------------------------------------

export const FaultRule = Shape({
  id: Type.String(),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  match: FaultMatch,
  action: FaultAction,
  probability: Type.Number(),
  remaining: Nullable(Type.Integer()),
  expires_at: Nullable(Iso()),
  hits: Type.Integer(),
  evaluations: Type.Integer(),
  explanation: Type.String({ description: 'What the rule does, in one sentence' }),
  created_at: Iso(),
  updated_at: Nullable(Iso()),
})

export const FaultPreset = Shape({
  id: Type.String(),
  name: Type.String({ description: 'The name a rule made from it gets' }),
  label: Type.String({ description: 'A short label for a button' }),
  description: Type.String(),
  common: Type.Boolean({ description: 'One of the few offered first (402, 429, 503)' }),
  action: FaultAction,
})

// ---- Chat fixtures -------------------------------------------------------------------------------

export const ChatFixture = Shape({
  id: Type.String(),
  account_id: Type.String(),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  position: Type.Integer({ description: "The rule's place in its account's list: the first that matches answers" }),
  match: ChatFixtureMatch,
  answer: ChatFixtureAnswer,
  times: Nullable(Type.Integer({ description: 'How many requests it answers; null: every one' })),
  remaining: Nullable(Type.Integer()),
  hits: Type.Integer(),
  explanation: Type.String({ description: 'What the rule does, in one sentence' }),
  created_at: Iso(),
  updated_at: Nullable(Iso()),
})

export const ChatFixtureTest = Shape({
  fixture: Nullable(ChatFixture),
  checks: Type.Array(
    Shape({
      id: Type.String(),
      name: Nullable(Type.String()),
      answers: Type.Boolean(),
      reason: Nullable(Type.String({ description: 'Why it does not answer' })),
    }),
    { description: 'Every rule of the account, in order, with why it would or would not answer (the first that would, answers)' },
  ),
})

// ---- Journal -------------------------------------------------------------------------------------

const Message = Shape({ headers: Type.Record(Type.String(), Type.String()), body: Nullable(Type.String()), body_bytes: Type.Integer() })

const journalFields = {
  id: Type.Integer(),
  time: Iso('Virtual time the request arrived'),
  wall_time: Iso('Real time, for HAR and for reading next to other logs'),
  operation: Type.String(),
  method: Type.String(),
  path: Type.String(),
  query: Type.String(),
  status: Type.Integer(),
  duration_ms: Type.Number(),
  account_id: Nullable(Type.String()),
  key_hash: Nullable(Type.String()),
  fault: Nullable(Type.String()),
  aborted: Type.Boolean({ description: 'The connection was closed before an answer (a dropped-connection fault)' }),
  effects: Shape({
    usage: Type.Array(Type.Integer()),
    tasks: Type.Array(Type.String()),
    charges: Type.Array(Type.String()),
    callbacks: Type.Array(Type.String()),
  }),
}
export const JournalSummary = Shape(journalFields, 'A journal entry without its headers and bodies')
export const JournalEntry = Shape({ ...journalFields, request: Message, response: Message })

// ---- Charges, video tasks, callbacks -------------------------------------------------------------

export const ChargeStatus = StringEnum(['pending', 'confirmed', 'expired'] as const)
export const Charge = Shape({
  ...ChargeObject.properties,
  account_id: Type.String(),
  amount_usd: Type.Number(),
  chain_id: Type.Integer(),
  sender: Type.String(),
  status: ChargeStatus,
  confirmed_at: Nullable(Iso()),
})

export const VideoTaskOutcome = StringEnum(['success', 'failed', 'stuck'] as const)
export const VideoCreation = Shape({
  id: Type.String(),
  url: Type.String(),
  cover_url: Type.String(),
  watermarked_url: Type.String(),
  video: Shape({ duration: Type.Number(), fps: Type.Number(), resolution: Shape({ width: Type.Integer(), height: Type.Integer() }) }),
})
export const VideoTask = Shape({
  id: Type.String(),
  type: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  template: Type.Optional(Type.String()),
  state: TaskState,
  err_code: Type.String(),
  credits: Type.Number(),
  payload: Type.String(),
  bgm: Type.Optional(Type.Boolean()),
  off_peak: Type.Boolean(),
  progress: Type.Number(),
  creations: Type.Array(VideoCreation),
  created_at: Iso(),
  account_id: Type.String(),
  key_hash: Nullable(Type.String()),
  operation: Type.String(),
  prompt: Nullable(Type.String({ description: "The request's prompt (multiframe: its key frames' prompts, joined by ' / '); null when it had none" })),
  duration: Type.Number({ description: 'Seconds requested (the default filled in), as the task reports them' }),
  request: Type.Unknown({ description: 'The create request as it was checked' }),
  callback_url: Nullable(Type.String()),
  planned_outcome: VideoTaskOutcome,
  next_transition_at: Nullable(Iso()),
  timeline: Type.Array(Shape({ state: TaskState, at: Iso() })),
})

export const CallbackDeliveryStatus = StringEnum(['pending', 'delivered', 'failed'] as const)
export const CallbackDelivery = Shape({
  id: Type.String(),
  task_id: Type.String(),
  account_id: Type.String(),
  url: Type.String(),
  state: Type.String({ description: 'The task state the body reports' }),
  status: CallbackDeliveryStatus,
  attempt_count: Type.Integer(),
  max_attempts: Type.Integer(),
  next_attempt_at: Nullable(Iso()),
  created_at: Iso(),
  delivered_at: Nullable(Iso()),
  body: Type.String({ description: 'The JSON body, exactly as sent' }),
  attempts: Type.Array(
    Shape({
      attempt: Type.Integer(),
      at: Iso(),
      wall_at: Iso(),
      status: Nullable(Type.Integer()),
      duration_ms: Type.Number(),
      error: Nullable(Type.String()),
    }),
  ),
})

export const AccountGuardrail = Shape({ ...GuardrailObject.properties, keys: Type.Array(KeyAssignmentObject), members: Type.Array(MemberAssignmentObject) })

const Limit = (description: string) => Nullable(Type.Integer({ minimum: 1, description }))
/** The request limits on inference routes in force (null: none). */
export const RateLimits = Shape({
  keyPerMinute: Limit('Requests per minute one key may make'),
  keyPerDay: Limit('Requests per day one key may make'),
  accountPerMinute: Limit('Requests per minute one account may make'),
  accountPerDay: Limit('Requests per day one account may make'),
})

/** The video task settings in force. */
export const VideoSettings = Shape({
  created_ms: Type.Integer(),
  queueing_ms: Type.Integer(),
  processing_ms: Type.Integer(),
  off_peak_queueing_ms: Type.Integer(),
  failure_rate: Type.Number(),
  model_failure_rates: Type.Record(Type.String(), Type.Number()),
  fail_code: Type.String(),
})

/** Callback attempts the outbox holds. */
export const Outbox = Shape({
  in_flight: Type.Integer({ description: 'Attempts under way' }),
  queued: Type.Integer({ description: 'Claimed deliveries waiting for a free slot of their destination' }),
  due: Type.Integer({ description: 'Pending deliveries due now that are not claimed yet' }),
})

/** The catalog's size after a change. */
export const CatalogSummary = Shape({ models: Type.Integer(), endpoints: Type.Integer() })

// ---- Stats (GET /stats) -------------------------------------------------------------------------

const Held = (what: string) =>
  Shape({
    entries: Type.Integer(),
    bytes: Type.Integer({ description: `Bytes ${what} holds` }),
    limit_bytes: Type.Integer({ description: 'The most it may hold' }),
  })

/** What the emulator holds in memory, and the bounds it keeps to. */
export const Stats = Shape({
  process: Shape({
    rss_bytes: Type.Integer(),
    heap_used_bytes: Type.Integer(),
    heap_total_bytes: Type.Integer(),
    external_bytes: Type.Integer({ description: 'Memory outside the JavaScript heap (buffers), as V8 counts it' }),
  }),
  journal: Held('of request and response bodies the journal'),
  vector_cache: Held('the embeddings vector cache (keys, vectors and their encodings)'),
})
