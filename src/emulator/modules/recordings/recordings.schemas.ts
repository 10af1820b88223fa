// The recordings' admin shapes (TypeBox only, so admin/types.ts derives the shared types): each loaded
// file of the --replay folder, and the list with where a miss goes.
import { Type, type Static } from 'typebox'
import { ON_MISS } from '../../core/types.ts'
import { Nullable, Shape, StringEnum } from '../../http/schemas.ts'
import { RAW_OPERATIONS, TEXT_OPERATIONS } from './recordings-format.service.ts'

export const RecordingView = Shape({
  file: Type.String({ description: 'The file, relative to the --replay folder' }),
  operation: StringEnum([...TEXT_OPERATIONS, ...RAW_OPERATIONS], {
    description: 'The operation it was recorded through (a text answer replays through every text operation)',
  }),
  model: Type.String({ description: 'The model that answered, as recorded' }),
  times: Nullable(Type.Integer({ description: 'How many requests it answers; null: every one' })),
  remaining: Nullable(Type.Integer({ description: 'Uses left in this process; null: no bound' })),
  uses: Type.Integer({ description: 'Billed answers it gave in this process' }),
  loosened: Type.Boolean({ description: 'Matched by its `match` conditions rather than by the whole request' }),
})
export type RecordingView = Static<typeof RecordingView>

export const RecordingsList = Shape({
  data: Type.Array(RecordingView),
  total_count: Type.Integer(),
  folder: Nullable(Type.String({ description: 'The --replay folder, or null' })),
  on_miss: StringEnum(ON_MISS, { description: 'What a request no recording answers gets' }),
  upstream: Nullable(Type.String({ description: 'The --upstream origin (never its key), or null' })),
})
export type RecordingsList = Static<typeof RecordingsList>
