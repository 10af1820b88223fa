// The OpenAI-style Responses API (POST /api/v1/responses) on the text engine shared with chat: no
// state of its own (answers are generations, billed and recorded by the engine).
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_INPUT_ITEMS, MAX_METADATA_KEY_CHARS, MAX_METADATA_KEYS, MAX_TEXT_CHARS, MAX_TOOLS } from './responses.schemas.ts'
import { responsesRoutes } from './responses.routes.ts'
import { responsesSurface } from './responses.service.ts'
import type { TextSurface } from '../text/text-ports.service.ts'

declare module '../module.ts' {
  interface Services {
    /** The Responses API as registered with the text engine. */
    responses: TextSurface
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Input items in one request', value: MAX_INPUT_ITEMS, unit: 'items', beyond: '400 naming `input`' },
  { what: 'Characters of `input` as one string, and of `instructions`', value: MAX_TEXT_CHARS, unit: 'characters', beyond: '400 naming the field' },
  { what: 'Tools in one request', value: MAX_TOOLS, unit: 'items', beyond: '400 naming `tools`' },
  { what: 'Keys of `metadata`', value: MAX_METADATA_KEYS, unit: 'items', beyond: '400 naming `metadata`' },
  { what: 'Characters of a `metadata` key', value: MAX_METADATA_KEY_CHARS, unit: 'characters', beyond: '400 naming the key' },
]

export const responsesModule = defineModule({
  name: 'responses',
  limits: LIMITS,
  needs: ['catalog', 'presets', 'text'],
  create: (ctx) => ctx.services.text.ports.registerSurface(responsesSurface),
  gateway: responsesRoutes,
})
