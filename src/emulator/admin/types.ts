// The admin API's shapes (/_emulator/api), declared once: the routes' views are typed with them, and
// the testing helper and the inspector UI import them type-only. What a route takes and what it
// answers are TypeBox schemas in each area's *.schemas.ts (and admin.responses.ts): the types here are their
// Static<>. This file imports only schema modules (TypeBox, nothing of Node), so the browser build
// type-checks it, and the published declarations need only the package's runtime dependencies.
import type { Static } from 'typebox'
import type { EmulatorEvents } from '../core/types.ts'
import type { AccountCreditsBody, CreateAccountBody, UpdateAccountBody } from '../modules/accounts/accounts.schemas.ts'
import type { ClockAdvanceBody } from '../modules/clock/clock.schemas.ts'
import type { CreateKeyBody } from '../modules/keys/keys.schemas.ts'
import type {
  CreateFaultBody,
  FaultAction as FaultActionSchema,
  FaultMatch as FaultMatchSchema,
  PresetBody,
  UpdateFaultBody,
} from '../faults/faults.schemas.ts'
import type { JournalListQuery } from '../journal/journal.schemas.ts'
import type {
  ChatSettings as ChatSettingsSchema,
  ChatSettingsBody,
  CreateChatFixtureBody,
  TestChatFixtureBody,
  UpdateChatFixtureBody,
} from '../modules/text/text-fixtures.schemas.ts'
import type { ActivityItem, ActivityQuery as ActivityQuerySchema } from '../modules/activity/activity.schemas.ts'
import type { GuardrailObject, KeyAssignmentObject, MemberAssignmentObject } from '../modules/guardrails/guardrails.schemas.ts'

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

/** GET /accounts, PATCH /accounts/:id, PUT /accounts/:id/credits. */
/** GET /accounts/:id: the account with its members. */
/** POST /accounts (201): the new account with its two starter keys' tokens. */

export type CreateAccountInput = Static<typeof CreateAccountBody>
export type UpdateAccountInput = Static<typeof UpdateAccountBody>
export type AccountCreditsInput = Static<typeof AccountCreditsBody>

/** GET /accounts/:id/keys: the gateway's key object, with its kind and its token. */
export type CreateKeyInput = Static<typeof CreateKeyBody>

// ---- Clock ---------------------------------------------------------------------------------------

/** GET /clock and every clock move. */
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
/** GET /faults/presets: the common faults, one call each. */

// ---- Chat fixtures -------------------------------------------------------------------------------

/** POST /accounts/:id/chat-fixtures. */
export type ChatFixtureInput = Static<typeof CreateChatFixtureBody>
/** PATCH /chat-fixtures/:id. */
export type ChatFixturePatch = Static<typeof UpdateChatFixtureBody>
/** POST /accounts/:id/chat-fixtures/test. */
export type ChatFixtureTestInput = Static<typeof TestChatFixtureBody>
/** A stored chat fixture, with its counts and a one-sentence explanation. */
/** GET /chat/settings: answer lengths (all models, and per model) and the stream speed. */
export type ChatSettings = Static<typeof ChatSettingsSchema>
/** PUT /chat/settings: any of them. */
export type ChatSettingsInput = Static<typeof ChatSettingsBody>

// ---- Journal -------------------------------------------------------------------------------------

export type JournalQuery = Static<typeof JournalListQuery>

/** A journal entry without its headers and bodies: what the event stream sends. */

// ---- Activity and guardrails ---------------------------------------------------------------------

export type ActivityQuery = Static<typeof ActivityQuerySchema>

/** One row of an activity report (GET /api/v1/activity, and the admin read of any account's). */
export type ActivityRow = ActivityItem

/** A guardrail as the gateway shows it (fields a client stored beyond these are kept as sent). */
export type Guardrail = GuardrailObject
export type GuardrailKeyAssignment = KeyAssignmentObject
export type GuardrailMemberAssignment = MemberAssignmentObject

/** GET /accounts/:id/guardrails: each guardrail with what is assigned to it. */

// ---- Charges, video tasks, callbacks -------------------------------------------------------------

/** GET /charges: the gateway's charge with what the emulator knows about it. */

/** GET /video/tasks: the router's task view, with its request, planned outcome and timeline. */

/** GET /callbacks: a delivery of a task's callback, with every attempt. */

/** GET /stats: memory held, and the bounds kept. */

// ---- The event stream (GET /events) --------------------------------------------------------------

export type { EmulatorEvents }
export type { ClockMode, ClockState, VideoTaskState } from '../core/types.ts'

export type { StreamEvents } from '../journal/journal.schemas.ts'

// ---- Types owned by their areas, re-exported for the testing helper and the inspector ----------

export type { FaultRule, FaultPreset } from '../faults/faults.schemas.ts'
export type { ChatFixture, ChatFixtureTest } from '../modules/text/text-fixtures.schemas.ts'
export type { JournalEntry, JournalSummary } from '../journal/journal.schemas.ts'
export type { ChargeStatus, Charge } from '../modules/credits/credits.schemas.ts'
export type { VideoTaskOutcome, VideoCreation, VideoTask } from '../modules/video-router/video-router.schemas.ts'
export type { CallbackDeliveryStatus, CallbackDelivery } from '../modules/callbacks/callbacks.schemas.ts'
export type { AccountGuardrail } from '../modules/guardrails/guardrails.schemas.ts'
export type { Member, Account, AccountDetail, CreatedAccount } from '../modules/accounts/accounts.schemas.ts'
export type { KeyKind, AdminKey } from '../modules/keys/keys.schemas.ts'
export type { RecordingView, RecordingsList } from '../modules/recordings/recordings.schemas.ts'
export type { CatalogDocument, CatalogModel, CatalogEndpoint } from '../modules/catalog/catalog.schemas.ts'
export type { Stats } from './admin.responses.ts'
export type { AccountWorkspace } from '../modules/workspaces/workspaces.schemas.ts'
export type { AccountPreset } from '../modules/presets/presets.schemas.ts'
export type { ByokKeyObject as AccountByokKey } from '../modules/byok/byok.schemas.ts'

/**
 * GET /accounts/:id/observability/destinations: a destination as the API shows it (secrets masked),
 * the fields the inspector reads. Written out rather than the schema's Static<>: observability.schemas.ts
 * reaches code that needs Node (its destination types' checks), which the browser build cannot check.
 * test/unit/renderer/data-management.test.ts fails to compile if DestinationObject stops fitting it.
 */
export interface AccountDestination {
  id: string
  workspace_id: string
  type: string
  name: string | null
  enabled: boolean
  /** Its settings, secrets masked; the inspector shows only the host of its address. */
  config: object
  created_at: string
}
