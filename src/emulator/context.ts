// Everything a module needs, built once per emulator and passed in explicitly: no module reaches
// for time, randomness, ids or the database on its own.
import type { EmulatorConfig } from './config.ts'
import type { Clock } from './core/clock.ts'
import { EmulatorEventBus } from './core/events.ts'
import { createIds, type Ids } from './core/ids.ts'
import { StateRegistry } from './core/lifecycle.ts'
import { accountsState, createAccountsRepo } from './modules/accounts/accounts.repo.ts'
import { createKeysRepo, keysState } from './modules/keys/keys.repo.ts'
import { createUsageRepo, usageState } from './modules/usage/usage.repo.ts'
import { createGenerationsRepo, generationsState } from './modules/chat/chat.repo.ts'
import { chatFixturesState, createChatFixturesRepo } from './modules/chat/chat-fixtures.repo.ts'
import { chatSettingsState, createChatSettings, type ChatSettingsHolder } from './modules/chat/chat.settings.ts'
import { createCatalogRepo } from './modules/catalog/catalog.repo.ts'
import { createCreditsRepo, creditsState } from './modules/credits/credits.repo.ts'
import { createRateLimiter, rateLimitState, type RateLimiter, type RateLimits } from './modules/ratelimit/ratelimit.ts'
import { createVideoRepo } from './modules/video/video.repo.ts'
import { createFaultsRepo, faultsState } from './faults/faults.ts'
import { callbacksState, createCallbacksRepo } from './modules/callbacks/callbacks.repo.ts'
import { createGuardrailsRepo, guardrailsState } from './modules/guardrails/guardrails.repo.ts'
import { guardrailPolicy, guardrailsOf } from './modules/guardrails/guardrails.service.ts'
import type { CatalogDocument } from './modules/catalog/catalog.schemas.ts'
import { catalogState, createCatalogHolder, createPolicyRegistry, type CatalogHolder, type PolicyRegistry } from './modules/catalog/catalog.service.ts'
import type { DB } from './store/db.ts'
import { createSequences, storeState } from './store/sequences.ts'
import { OwnAddresses } from './http/listeners.ts'

export interface EmulatorContext {
  readonly config: Readonly<EmulatorConfig>
  readonly version: string
  readonly db: DB
  readonly clock: Clock
  readonly ids: Ids
  readonly events: EmulatorEventBus
  /** The running model catalog. */
  readonly catalog: CatalogHolder
  /** What restricts a caller's choice of models and endpoints (account settings, guardrails, region). */
  readonly policies: PolicyRegistry
  /** Optional request limits on inference routes. */
  readonly rateLimiter: RateLimiter
  /** The chat engine's run-time settings (answer lengths, stream speed). */
  readonly chatSettings: ChatSettingsHolder
  /** Who owns which table and run-time setting: reset, export, import and account reset walk it. */
  readonly state: StateRegistry
  /** The emulator's own listeners: a callback URL must not point back at one. */
  readonly ownAddresses: OwnAddresses
  /** Warnings for the operator's log (stderr unless silent). */
  warn(message: string): void
  readonly repos: {
    readonly accounts: ReturnType<typeof createAccountsRepo>
    readonly keys: ReturnType<typeof createKeysRepo>
    readonly usage: ReturnType<typeof createUsageRepo>
    readonly catalog: ReturnType<typeof createCatalogRepo>
    readonly guardrails: ReturnType<typeof createGuardrailsRepo>
    readonly charges: ReturnType<typeof createCreditsRepo>
    readonly video: ReturnType<typeof createVideoRepo>
    readonly callbacks: ReturnType<typeof createCallbacksRepo>
    readonly faults: ReturnType<typeof createFaultsRepo>
    readonly generations: ReturnType<typeof createGenerationsRepo>
    readonly chatFixtures: ReturnType<typeof createChatFixturesRepo>
  }
}

export interface ContextInputs {
  config: Readonly<EmulatorConfig>
  version: string
  db: DB
  clock: Clock
  catalogFixture: CatalogDocument
}

export function createContext({ config, version, db, clock, catalogFixture }: ContextInputs): EmulatorContext {
  const warn = (message: string): void => {
    if (config.logLevel !== 'silent' && config.logLevel !== 'error') process.stderr.write(`gateway-emulator: warning: ${message}\n`)
  }
  const repos = {
    accounts: createAccountsRepo(db),
    keys: createKeysRepo(db),
    usage: createUsageRepo(db),
    generations: createGenerationsRepo(db),
    chatFixtures: createChatFixturesRepo(db),
    catalog: createCatalogRepo(db),
    guardrails: createGuardrailsRepo(db),
    charges: createCreditsRepo(db),
    video: createVideoRepo(db),
    callbacks: createCallbacksRepo(db),
    faults: createFaultsRepo(db),
  }
  const configuredLimits: RateLimits = {
    keyPerMinute: config.rateLimitKeyPerMinute,
    keyPerDay: config.rateLimitKeyPerDay,
    accountPerMinute: config.rateLimitAccountPerMinute,
    accountPerDay: config.rateLimitAccountPerDay,
  }
  const rateLimiter = createRateLimiter(configuredLimits)
  const chatSettings = createChatSettings(config)
  const catalog = createCatalogHolder(repos.catalog, catalogFixture, warn)
  const state = new StateRegistry()
  for (const owner of [
    storeState,
    accountsState(db),
    keysState,
    usageState(db),
    generationsState(db),
    chatFixturesState(db),
    chatSettingsState(chatSettings, config),
    catalogState(catalog),
    guardrailsState(db),
    creditsState(db),
    callbacksState(db),
    faultsState,
    rateLimitState(rateLimiter, configuredLimits),
  ]) {
    state.add(owner)
  }
  const policies = createPolicyRegistry()
  // A key answers to its own guardrail and to its member's.
  policies.add((caller) => guardrailsOf(repos.guardrails, caller).map(guardrailPolicy))
  return {
    config,
    version,
    db,
    clock,
    ids: createIds(config.seed, createSequences(db)),
    ownAddresses: new OwnAddresses(config),
    events: new EmulatorEventBus(),
    catalog,
    policies,
    rateLimiter,
    chatSettings,
    state,
    warn,
    repos,
  }
}
