// What the journal's admin routes take (TypeBox only, so admin/types.ts derives its types from it).
import { Type, type Static } from 'typebox'
import type { EmulatorEvents } from '../core/types.ts'
import { Iso, Nullable, Shape } from '../http/schemas.ts'

export const JournalListQuery = Type.Object({
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  operation: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  key: Type.Optional(Type.String({ maxLength: 512, description: 'A key, or the SHA-256 hash of one (hex): the requests made with it' })),
  account: Type.Optional(Type.String({ maxLength: 200, description: "An account's id: its requests only (a workspace of the testing helper)" })),
  fault: Type.Optional(Type.String()),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
})

// ---- Admin answers -------------------------------------------------------------------------------

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
  // Where an inference answer came from: generated here, replayed from a recording, or proxied upstream; null where not said.
  source: Type.Union([
    Shape({ kind: Type.Literal('generated') }),
    Shape({ kind: Type.Literal('replayed'), file: Type.String({ description: 'The recorded file that answered, relative to --replay' }) }),
    Shape({
      kind: Type.Literal('proxied'),
      upstream_status: Type.Integer(),
      upstream_ms: Type.Number(),
      recorded_file: Nullable(Type.String({ description: 'The file the answer was saved to (--record), or null' })),
      not_recorded: Type.Optional(Type.String({ description: 'With --record, why the answer was relayed and not saved (the log says the same)' })),
    }),
    Type.Null(),
  ]),
  media: Type.Array(
    Shape({
      index: Type.Integer(),
      content_type: Nullable(Type.String()),
      bytes: Nullable(Type.Integer()),
      kept: Type.Boolean({ description: 'false once dropped for newer files (--journal-media-limit)' }),
    }),
    { description: 'Files the answer carried (images, speech, video): GET /journal/{id}/media/{index} serves each while kept' },
  ),
}
export const JournalSummary = Shape(journalFields, 'A journal entry without its headers and bodies')
export type JournalSummary = Static<typeof JournalSummary>
export const JournalEntry = Shape({ ...journalFields, request: Message, response: Message })
export type JournalEntry = Static<typeof JournalEntry>

/**
 * Every event the stream sends: the state changes, `journal` (a JournalSummary) for each new journal
 * entry, and `reset` when a reconnect asked for events older than the stream still holds (the
 * client should read everything again).
 */
export interface StreamEvents extends EmulatorEvents {
  journal: JournalSummary
  reset: { reason: 'too-old' | 'unknown-id'; last_event_id: number }
}
