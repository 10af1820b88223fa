// The text engine (text-engine.service.ts) as a module: the chat fixtures and run-time settings it answers by,
// the pacer and schema worker every text surface shares, the answers it has written, and what is
// registered with it: the text surfaces (chat and text completions, the Responses API, the Messages
// API, each from its own module) and the answer sources (recordings; chat fixtures and written
// answers, the engine's own, last).
import { uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import type { ModuleRoutes } from '../module.ts'
import { defineModule } from '../module.ts'
import { createAnswerCache, type AnswerCache } from './text-answer-cache.service.ts'
import { ChatFixtureAnswer, ChatFixtureMatch } from './text-fixtures.schemas.ts'
import { checkImportedFixture } from './text-fixtures.service.ts'
import { chatFixturesState, createChatFixturesRepo, type ChatFixturesRepo } from './text-fixtures.repo.ts'
import { FILL_MS, SchemaFiller } from './text-schema-filler.service.ts'
import { writtenAnswers } from './text-engine.service.ts'
import { chatAdminRoutes } from './text.admin.ts'
import { createPacer, type Pacer } from './text-pace.service.ts'
import { TEXT_CONFIG } from './text.config.ts'
import { TextPorts } from './text-ports.service.ts'
import { createPromptCacheRepo, PROMPT_CACHE_ROWS, promptCacheState, type PromptCacheRepo } from './text-cache.repo.ts'
import { chatSettingsState, createChatSettings, type ChatSettingsHolder } from './text.settings.ts'

export interface TextService {
  fixtures: ChatFixturesRepo
  /** The engine's run-time settings (answer lengths, stream speed). */
  settings: ChatSettingsHolder
  /** How every text surface's streams wait (on the virtual clock while it is frozen). */
  pacer: Pacer
  /** The worker that fills schemas for every text surface (one, not one per surface). */
  filler: SchemaFiller
  /** Answers already written, by what they were written from. */
  answers: AnswerCache
  /** The surfaces and answer sources registered with the engine. */
  ports: TextPorts
  /** The prefixes each account has cached (prompt caching: text-cache.service.ts). */
  promptCache: PromptCacheRepo
}

declare module '../module.ts' {
  interface Services {
    text: TextService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: "Generating the values of one request's JSON Schemas (structured outputs, tool arguments), in a worker",
    value: FILL_MS,
    unit: 'ms',
    beyond: '400 naming the schema: could not be filled within the time',
  },
  {
    what: 'Prompt prefixes one account keeps cached (prompt caching), all models together',
    value: PROMPT_CACHE_ROWS,
    unit: 'items',
    beyond: 'expired ones are dropped first, then those soonest to expire',
  },
]

/** No routes: the pacer and the schema worker end with the app. */
const closeWithApp: ModuleRoutes = async (app, { ctx }) => {
  app.addHook('onClose', async () => {
    ctx.services.text.pacer.close()
    await ctx.services.text.filler.close()
  })
}

export const textModule = defineModule({
  name: 'text',
  config: TEXT_CONFIG,
  limits: LIMITS,
  needs: ['accounts', 'catalog', 'faults', 'generations', 'images', 'journal', 'meter'],
  create: (ctx) => {
    const ports = new TextPorts()
    // A chat fixture's answer, or one written here: the last source, when nothing before answers.
    ports.registerSource(writtenAnswers)
    return {
      fixtures: createChatFixturesRepo(ctx.db),
      settings: createChatSettings(ctx.config),
      pacer: createPacer(ctx.clock),
      filler: new SchemaFiller(),
      answers: createAnswerCache(),
      ports,
      promptCache: createPromptCacheRepo(ctx.db),
    }
  },
  state: (ctx) => [
    {
      ...chatFixturesState(ctx.db),
      imports: { chat_fixtures: { json: { match: ChatFixtureMatch, answer: ChatFixtureAnswer }, check: checkImportedFixture } },
      mints: [uuidIds('chat-fixture', 'chat_fixtures')],
    },
    chatSettingsState(ctx.services.text.settings, ctx.config),
    promptCacheState(ctx.db),
  ],
  gateway: closeWithApp,
  admin: chatAdminRoutes,
})
