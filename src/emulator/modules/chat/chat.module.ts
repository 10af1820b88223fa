// Chat and text completions: per-account chat fixtures and the engine's run-time settings.
import { uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_CHOICES, MAX_MESSAGES, MAX_TOOLS } from './chat.schemas.ts'
import { ChatFixtureAnswer, ChatFixtureMatch } from './chat-fixtures.schemas.ts'
import { checkImportedFixture } from './chat-fixtures.service.ts'
import { chatAdminRoutes } from './chat.admin.ts'
import { chatFixturesState, createChatFixturesRepo, type ChatFixturesRepo } from './chat-fixtures.repo.ts'
import { createPacer, type Pacer } from './chat.pace.ts'
import { chatRoutes } from './chat.routes.ts'
import { FILL_MS, SchemaFiller } from './schema-filler.ts'
import { createAnswerCache, type AnswerCache } from './answer-cache.ts'
import { chatSettingsState, createChatSettings, type ChatSettingsHolder } from './chat.settings.ts'

export interface ChatService {
  fixtures: ChatFixturesRepo
  /** The engine's run-time settings (answer lengths, stream speed). */
  settings: ChatSettingsHolder
  /** How every text surface's streams wait (on the virtual clock while it is frozen). */
  pacer: Pacer
  /** The worker that fills schemas for every text surface (one, not one per surface). */
  filler: SchemaFiller
  /** Answers already written, by what they were written from. */
  answers: AnswerCache
}

declare module '../module.ts' {
  interface Services {
    chat: ChatService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Messages in one chat or text completion', value: MAX_MESSAGES, unit: 'items', beyond: '400 naming `messages`' },
  { what: 'Tools in one request', value: MAX_TOOLS, unit: 'items', beyond: '400 naming `tools`' },
  { what: 'Choices in one request (`n`)', value: MAX_CHOICES, unit: 'items', beyond: '400 naming `n`' },
  {
    what: "Generating the values of one request's JSON Schemas (structured outputs, tool arguments), in a worker",
    value: FILL_MS,
    unit: 'ms',
    beyond: '400 naming the schema: could not be filled within the time',
  },
]

export const chatModule = defineModule({
  name: 'chat',
  limits: LIMITS,
  needs: ['accounts', 'catalog', 'faults', 'meter', 'images', 'journal', 'recordings', 'generations'],
  create: (ctx) => ({
    fixtures: createChatFixturesRepo(ctx.db),
    settings: createChatSettings(ctx.config),
    pacer: createPacer(ctx.clock),
    filler: new SchemaFiller(),
    answers: createAnswerCache(),
  }),
  state: (ctx) => [
    {
      ...chatFixturesState(ctx.db),
      imports: { chat_fixtures: { json: { match: ChatFixtureMatch, answer: ChatFixtureAnswer }, check: checkImportedFixture } },
      mints: [uuidIds('chat-fixture', 'chat_fixtures')],
    },
    chatSettingsState(ctx.services.chat.settings, ctx.config),
  ],
  gateway: chatRoutes,
  admin: chatAdminRoutes,
})
